package integrity

// harnessFile matches what the tests run with besides the test files themselves: the runners'
// configs and setup files, and the helpers, fixtures and golden files tests read.
var harnessFile = lazy(`(^|/)(` +
	`(jest|vitest|vite|karma|playwright|cypress)\.(config|setup|workspace)[^/]*|` +
	`\.mocharc[^/]*|setupTests\.[^/]*|test[-_.]?setup\.[^/]*|setup[-_.]?tests?\.[^/]*|` +
	`pytest\.ini|tox\.ini|noxfile\.py|` +
	`[^/]*test[-_]?(util|utils|helper|helpers|support)[^/]*` +
	`)$|(^|/)(testdata|__fixtures__|__mocks__|__snapshots__|fixtures|testutil|testhelpers|testing)/`)

// IsHarnessFile says whether a change to file p can change what the tests expect without a test
// file saying so: a test file, a runner's config or setup file, a test helper, a fixture or
// golden file. The base's versions of these judge the change's code (expectation-changed).
func IsHarnessFile(p string) bool {
	return isTestFile(p) || harnessFile.MatchString(p)
}
