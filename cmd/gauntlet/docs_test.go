package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gauntlet-dev/gauntlet/config"
)

// The documentation is a set of files that link to each other; these tests keep the set whole
// as sections move: every relative link names a file that exists and, with a #fragment, a
// heading that exists in it.

const repoRoot = "../.."

// docFiles lists README.md and every Markdown file under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(repoRoot, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	mdLink    = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`^#{1,6} (.*)$`)
	notSlug   = regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
)

// anchors returns the GitHub anchors of a Markdown file's headings, outside code fences.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	fenced := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if m := mdHeading.FindStringSubmatch(line); m != nil && !fenced {
			slug := strings.ReplaceAll(notSlug.ReplaceAllString(strings.ToLower(strings.TrimSpace(m[1])), ""), " ", "-")
			out[slug] = true
		}
	}
	return out
}

// links returns the link targets of a Markdown file, outside code fences.
func links(text string) []string {
	var out []string
	fenced := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

func TestDocumentationLinksResolve(t *testing.T) {
	files := docFiles(t)
	if len(files) < 10 {
		t.Fatalf("found only %v: the reference should be under docs/", files)
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range links(string(data)) {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				dest = filepath.Join(filepath.Dir(f), path)
			}
			body, err := os.ReadFile(filepath.Join(repoRoot, dest))
			if err != nil {
				if fi, statErr := os.Stat(filepath.Join(repoRoot, dest)); statErr == nil && fi.IsDir() && frag == "" {
					continue
				}
				t.Errorf("%s: link %q: %v", f, target, err)
				continue
			}
			if frag != "" && strings.HasSuffix(dest, ".md") && !anchors(string(body))[frag] {
				t.Errorf("%s: link %q: %s has no heading with anchor #%s", f, target, dest, frag)
			}
		}
	}
}

// The README is the front page: the reference lives in docs/.
func TestREADMEIsAFrontPage(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if n := strings.Count(text, "\n"); n > 300 {
		t.Errorf("README.md has %d lines; at most 300, the rest belongs in docs/", n)
	}
	// The two set-up commands come first.
	first := strings.Index(text, "make run")
	if first < 0 || first > strings.Index(text, "make test") || strings.Index(text, "make test") > 400 {
		t.Errorf("README.md does not start with `make run` and `make test`")
	}
}

// The README's example config is a config gauntlet accepts.
func TestREADMEExampleConfigLoads(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "```yaml\n# .gauntlet.yml\n")
	if !ok {
		t.Fatal("README.md has no ```yaml block starting with # .gauntlet.yml")
	}
	example, _, _ := strings.Cut(rest, "```")
	dir := t.TempDir()
	if _, err := config.Parse(filepath.Join(dir, ".gauntlet.yml"), []byte(example), dir); err != nil {
		t.Fatalf("README.md's example config does not load: %v", err)
	}
}

func TestAnchorsFollowGitHub(t *testing.T) {
	got := anchors("# The per-gate cache: `cache`, `inputs`, `session`\n```\n# not a heading\n```\n## Exit codes")
	for _, want := range []string{"the-per-gate-cache-cache-inputs-session", "exit-codes"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a line in a code fence became an anchor")
	}
}

// The Quick start's first run after init runs the gates: init's own files (.gauntlet.yml,
// .gitignore, the hook file) are a change that matches no gate's paths, so a plain `gauntlet run`
// there runs no gate (the quickstart testscript pins that), and the first command a newcomer
// copies must be `gauntlet run --all`, as init's next steps say.
func TestREADMEQuickStartRunsEveryGateAfterInit(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "## Quick start")
	if start < 0 {
		t.Fatal("README.md has no Quick start")
	}
	block := text[start:]
	block = block[strings.Index(block, "```sh"):]
	block = block[:strings.Index(block[3:], "```")+3]
	after := block[strings.Index(block, "gauntlet init"):]
	run := regexp.MustCompile(`(?m)^gauntlet run\b.*$`).FindString(after)
	if !strings.HasPrefix(run, "gauntlet run --all") {
		t.Errorf("the Quick start's first run after init is %q, want gauntlet run --all", run)
	}
}
