//go:build bench

// Command integrityreplay judges the last N commits of a repository, each against its first
// parent, as if each were the change under judgement, and prints how many commits raise each
// integrity rule: the false-alarm measurement of docs/integrity.md. -v prints every finding.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/integrity"
)

func main() {
	gitDir := flag.String("git-dir", ".", "the repository (a work tree or a bare git directory)")
	n := flag.Int("n", 200, "how many commits to replay, newest first, merges skipped")
	verbose := flag.Bool("v", false, "print every finding")
	flag.Parse()

	out, err := exec.Command("git", "-C", *gitDir, "log", "--first-parent", "--no-merges", "--format=%H %P", "-n", fmt.Sprint(*n), "HEAD").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "git log:", err)
		os.Exit(2)
	}
	commits := map[string]int{} // rule -> commits raising it
	findings := map[string]int{}
	replayed, flagged := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue // the root commit has no parent to compare with
		}
		ch, err := integrity.ReadGitCommits(context.Background(), *gitDir, fields[1], fields[0], integrity.Keep)
		if err != nil {
			fmt.Fprintln(os.Stderr, "replay", fields[0][:12], err)
			continue
		}
		replayed++
		found := integrity.Detect(ch, integrity.Inputs{ConfigFile: ".gauntlet.yml"})
		seen := map[string]bool{}
		for _, f := range found {
			findings[f.Rule]++
			if !seen[f.Rule] {
				seen[f.Rule] = true
				commits[f.Rule]++
			}
			if *verbose {
				fmt.Printf("%s %s %s:%d %s\n", fields[0][:10], f.Rule, f.File, f.Line, f.Message)
			}
		}
		if len(found) > 0 {
			flagged++
		}
	}
	fmt.Printf("%s: %d commits replayed, %d with findings\n", *gitDir, replayed, flagged)
	rules := append([]string(nil), gates.IntegrityRules...)
	sort.SliceStable(rules, func(i, j int) bool { return commits[rules[i]] > commits[rules[j]] })
	for _, r := range rules {
		if commits[r] > 0 {
			fmt.Printf("  %-20s %4d commits  %5d findings\n", r, commits[r], findings[r])
		}
	}
}
