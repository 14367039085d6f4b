package causes

import (
	"cmp"
	"path/filepath"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/preflight"
	"github.com/gauntlet-dev/gauntlet/internal/safefile"
)

// jsToolNotFound is the shell not finding a JavaScript tool, the line node-modules-missing
// matched most often.
var jsToolNotFound = lazyRegexp(`^(?:/bin/)?sh: \d+: (\S+): not found$`)

// jsToolPackage names the package of the tools whose binary is not their package's name.
var jsToolPackage = map[string]string{
	"tsc": "typescript", "ng": "@angular/cli", "run-s": "npm-run-all", "run-p": "npm-run-all",
	"svelte-kit": "@sveltejs/kit", "playwright": "@playwright/test", "biome": "@biomejs/biome",
	"babel": "@babel/cli", "docusaurus": "@docusaurus/core", "vuepress": "vuepress", "tap": "tap",
}

// maxPackageJSON bounds the package.json read to explain a missing tool.
const maxPackageJSON = 1 << 20

// explainNodeModules: in a project whose package.json declares no dependency at all,
// node_modules is not missing, it has nothing to hold, and installing the dependencies brings
// no tool; the tool must be added to the project. Elsewhere the catalogue's words stand.
func explainNodeModules(line string, opts Options) (summary, fix string) {
	m := jsToolNotFound().FindStringSubmatch(line)
	if m == nil || !declaresNoDependency(cmp.Or(opts.Dir, opts.Root)) {
		return "", ""
	}
	tool := m[1]
	pkg := cmp.Or(jsToolPackage[tool], tool)
	return tool + " is not installed, and package.json does not declare it",
		"add it: npm install --save-dev " + pkg + ", pnpm add -D " + pkg + " or yarn add -D " + pkg + ", then rerun"
}

// declaresNoDependency says whether dir's package.json declares no dependency of any kind and
// no workspaces; false when it cannot be read.
func declaresNoDependency(dir string) bool {
	data, err := safefile.ReadFile(filepath.Join(dir, "package.json"), maxPackageJSON, time.Now().Add(2*time.Second))
	return err == nil && preflight.NoDependencies(data)
}
