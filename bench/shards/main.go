//go:build bench

// Command shards shows how well `gauntlet ci matrix --shards N` balances a config: for each N,
// the planned longest shard against the ideal (total / N), next to the round-robin split that
// knows no durations. It drives the real binary, so it measures what CI gets.
//
//	go run -tags bench ./bench/shards -gauntlet bin/gauntlet -config .gauntlet.yml -timings report.json
//	go run -tags bench ./bench/shards -gauntlet bin/gauntlet -synthetic 40
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gauntlet-dev/gauntlet/internal/shard"
)

func main() {
	bin := flag.String("gauntlet", "bin/gauntlet", "the gauntlet binary")
	cfg := flag.String("config", "", "config to split")
	timings := flag.String("timings", "", "timings of the config's gates (a JSON report or a {gate: ms} object)")
	synthetic := flag.Int("synthetic", 0, "instead, a config of this many gates with skewed durations")
	flag.Parse()
	if err := run(*bin, *cfg, *timings, *synthetic); err != nil {
		fmt.Fprintln(os.Stderr, "shards:", err)
		os.Exit(1)
	}
}

func run(bin, cfg, timingsFile string, synthetic int) error {
	if synthetic > 0 {
		dir, err := os.MkdirTemp("", "gauntlet-shards")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		cfg, timingsFile, err = writeSynthetic(dir, synthetic)
		if err != nil {
			return err
		}
	}
	t, err := shard.ReadTimings(timingsFile)
	if err != nil {
		return err
	}
	var total, biggest time.Duration
	for _, d := range t {
		total += d
		biggest = max(biggest, d)
	}
	empty := filepath.Join(os.TempDir(), "gauntlet-shards-none.json")
	if err := os.WriteFile(empty, []byte("{}"), 0o644); err != nil {
		return err
	}
	defer os.Remove(empty)

	fmt.Printf("%d gates with durations, %s in all\n", len(t), total.Round(time.Second))
	// No split beats the longest gate: the bound is max(total/N, longest gate).
	fmt.Printf("longest gate %s\n", biggest.Round(time.Millisecond))
	fmt.Println("| N | ideal (total/N) | bound max(ideal, longest gate) | balanced: longest shard | over ideal | round-robin: longest shard | over ideal |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for n := 2; n <= 4; n++ {
		balanced, err := longest(bin, cfg, timingsFile, n, t)
		if err != nil {
			return err
		}
		robin, err := longest(bin, cfg, empty, n, t)
		if err != nil {
			return err
		}
		ideal := total / time.Duration(n)
		fmt.Printf("| %d | %s | %s | %s | %+.1f%% | %s | %+.1f%% |\n", n, ideal.Round(time.Millisecond), max(ideal, biggest).Round(time.Millisecond),
			balanced.Round(time.Millisecond), pct(balanced, ideal), robin.Round(time.Millisecond), pct(robin, ideal))
	}
	return nil
}

func pct(d, ideal time.Duration) float64 { return 100 * (float64(d)/float64(ideal) - 1) }

// longest asks `gauntlet ci matrix` for the split and times each shard with the real durations.
func longest(bin, cfg, timingsFile string, n int, t shard.Timings) (time.Duration, error) {
	cmd := exec.Command(bin, "ci", "matrix", "-c", cfg, "--shards", fmt.Sprint(n), "--timings", timingsFile)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.Env = append(os.Environ(), "CI=true")
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s: %v: %s", strings.Join(cmd.Args, " "), err, errOut.String())
	}
	var m struct {
		Include []struct {
			Gates string `json:"gates"`
		} `json:"include"`
	}
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		return 0, err
	}
	var worst time.Duration
	for _, e := range m.Include {
		var sum time.Duration
		for _, g := range strings.Fields(e.Gates) {
			sum += t[g]
		}
		worst = max(worst, sum)
	}
	return worst, nil
}

// writeSynthetic writes a config of n gates whose durations fall off as a power law (a few
// long test suites, a long tail of quick checks: 10 min for the longest, about 10 s for the
// 40th), listed in a scrambled order so that round-robin is not accidentally good or bad.
func writeSynthetic(dir string, n int) (cfg, timings string, err error) {
	var y strings.Builder
	y.WriteString("version: 1\ngates:\n")
	ms := map[string]int64{}
	for i := range n {
		j := (i*17 + 5) % n // a permutation of 0..n-1 when n and 17 are coprime
		name := fmt.Sprintf("g%02d", j)
		fmt.Fprintf(&y, "  %s:\n    run: \"true\"\n", name)
		ms[name] = int64(math.Round(600000 / math.Pow(float64(j+1), 1.1)))
	}
	cfg = filepath.Join(dir, ".gauntlet.yml")
	if err := os.WriteFile(cfg, []byte(y.String()), 0o644); err != nil {
		return "", "", err
	}
	data, _ := json.Marshal(ms)
	timings = filepath.Join(dir, "timings.json")
	return cfg, timings, os.WriteFile(timings, data, 0o644)
}
