package scaffold

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// packageJSON is the part of package.json that says which checks exist and how to run them.
type packageJSON struct {
	Scripts         map[string]any `json:"scripts"`
	PackageManager  string         `json:"packageManager"`
	Dependencies    map[string]any `json:"dependencies"`
	DevDependencies map[string]any `json:"devDependencies"`
}

// npmInitTest is the test script `npm init` writes: it always fails, so it is no test suite.
const npmInitTest = `echo "Error: no test specified" && exit 1`

// packageManager is how one package manager runs a script and a dependency's binary.
type packageManager struct {
	name     string
	lockFile []string
	run      string // followed by the script name
	exec     string // followed by a binary from node_modules/.bin
}

// packageManagers in the order their lock files are looked for; npm last, because a stray
// package-lock.json often lingers beside another manager's lock file.
var packageManagers = []packageManager{
	{name: "pnpm", lockFile: []string{"pnpm-lock.yaml"}, run: "pnpm run", exec: "pnpm exec"},
	{name: "yarn", lockFile: []string{"yarn.lock"}, run: "yarn run", exec: "yarn"},
	{name: "bun", lockFile: []string{"bun.lockb", "bun.lock"}, run: "bun run", exec: "bunx"},
	{name: "npm", lockFile: []string{"package-lock.json", "npm-shrinkwrap.json"}, run: "npm run", exec: "npx"},
}

func detectNode(dir string) *Project {
	if !exists(dir, "package.json") {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	var pkg packageJSON
	if err == nil {
		err = json.Unmarshal(data, &pkg)
	}
	pm := choosePackageManager(dir, pkg.PackageManager)
	p := &Project{Kind: "Node", Tool: pm.name}
	if err != nil {
		p.Notes = append(p.Notes, "package.json could not be read ("+err.Error()+"): add its checks by hand.")
		return p
	}
	script := func(name string) bool {
		s, ok := pkg.Scripts[name].(string)
		return ok && strings.TrimSpace(s) != "" && strings.TrimSpace(s) != npmInitTest
	}
	runScript := func(name string) string { return pm.run + " " + name }

	if script("lint") {
		p.Gates = append(p.Gates, Gate{Name: "lint", Comment: "the lint script", Run: runScript("lint"),
			Timeout: 5 * time.Minute, Hint: "Run `" + runScript("lint") + "`; many linters fix what they can with --fix."})
	}
	switch {
	case script("typecheck"):
		p.Gates = append(p.Gates, Gate{Name: "typecheck", Comment: "the typecheck script",
			Run: runScript("typecheck"), Timeout: 5 * time.Minute})
	case script("tsc"):
		p.Gates = append(p.Gates, Gate{Name: "typecheck", Comment: "the tsc script",
			Run: runScript("tsc"), Timeout: 5 * time.Minute})
	case exists(dir, "tsconfig.json") && (pkg.DevDependencies["typescript"] != nil || pkg.Dependencies["typescript"] != nil):
		p.Gates = append(p.Gates, Gate{Name: "typecheck", Comment: "type errors, as the TypeScript compiler reports them",
			Run: pm.exec + " tsc --noEmit", Timeout: 5 * time.Minute})
	}
	if script("test") {
		p.Gates = append(p.Gates, Gate{Name: "test", Comment: "the test script", Run: runScript("test"),
			Timeout: 10 * time.Minute})
	}
	if script("build") {
		p.Gates = append(p.Gates, Gate{Name: "build", Comment: "the build script", Run: runScript("build"),
			Timeout: 10 * time.Minute})
	}
	if len(p.Gates) == 0 {
		p.Notes = append(p.Notes, "package.json has none of the scripts lint, typecheck, tsc, test, build: add its checks by hand.")
	}
	return p
}

// choosePackageManager goes by the lock file, then by the packageManager field of package.json
// (Corepack's "pnpm@9.1.0"); without either, npm.
func choosePackageManager(dir, declared string) packageManager {
	for _, pm := range packageManagers {
		for _, lock := range pm.lockFile {
			if exists(dir, lock) {
				return pm
			}
		}
	}
	name, _, _ := strings.Cut(declared, "@")
	for _, pm := range packageManagers {
		if pm.name == name {
			return pm
		}
	}
	return packageManagers[len(packageManagers)-1]
}
