package scaffold

import "time"

// gofmtCheck lists the files gofmt would change and fails when there are any. gofmt -l alone
// always exits 0, and testdata and vendor hold code that is not the project's to format.
const gofmtCheck = `files=$(find . -name "*.go" -not -path "*/testdata/*" -not -path "./vendor/*" -exec gofmt -l {} +) && [ -z "$files" ] || { echo "$files"; exit 1; }`

func detectGo(dir string) *Project {
	if !exists(dir, "go.mod") {
		return nil
	}
	return &Project{Kind: "Go", Gates: []Gate{
		{Name: "fmt", Comment: "files that gofmt would reformat", Run: gofmtCheck,
			Timeout: 2 * time.Minute, Hint: "Run `go fmt ./...`."},
		{Name: "vet", Comment: "suspicious constructs, as go vet reports them", Run: "go vet ./...",
			Timeout: 5 * time.Minute},
		{Name: "test", Comment: "the tests", Run: "go test ./...",
			Timeout: 10 * time.Minute, Hint: "Rerun one test with `go test -run NAME ./PKG`."},
	}}
}
