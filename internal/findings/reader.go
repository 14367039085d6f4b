// Package findings reads problems (file, line, message) out of a gate's output as it streams, with
// a parser named by the gate's `format` or detected from its command.
package findings

import (
	"cmp"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gauntlet-dev/gauntlet/gates"
	"github.com/gauntlet-dev/gauntlet/internal/snapshot"
	"github.com/gauntlet-dev/gauntlet/internal/termtext"
)

const (
	// MaxFindings is how many findings one gate keeps; the rest are counted. Errors displace
	// warnings once the cap is reached, so that one error after thousands of warnings is kept.
	MaxFindings = 1000
	// MaxMessageBytes keeps one finding's message readable and the report bounded.
	MaxMessageBytes = 1000
	// maxFileBytes and maxRuleBytes bound the other text fields a parser copies from a line.
	maxFileBytes = 512
	maxRuleBytes = 128
	// maxLineBytes is how much of one output line a parser looks at: a 64 KiB minified-JS line
	// holds no finding a person would read, and regexps over it would cost for nothing.
	maxLineBytes = 8 << 10
)

// Severities of a finding.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Options says how one gate's output is read.
type Options struct {
	// Root is the absolute project root; Dir is the gate's directory relative to it. Tools print
	// paths relative to where they run, reports want them relative to the root.
	Root, Dir string
	// Added, when set, makes the reader keep only findings the change is to blame for (new_only):
	// on an added or modified line, or about a file the change touches when there is no line.
	// A finding without a file cannot be attributed and is always kept.
	Added snapshot.AddedLines
	// Max caps the kept findings; 0 means MaxFindings.
	Max int
}

// Reader is a runner.OutputReader that fills Outcome.Findings (and IgnoredFindings).
type Reader struct {
	opts    Options
	parser  parser
	seq     int
	errs    []ranked // kept errors
	others  []ranked // kept warnings and infos
	seen    map[string]bool
	dropped int // over the cap
	ignored int // set aside by new_only

	existsCache map[string]bool
	broken      bool // a parser panicked; it reads no more
}

type ranked struct {
	seq int
	f   gates.Finding
}

// NewReader reads with the parsers spec names (see Parse); nil when spec reads nothing.
func NewReader(spec Spec, opts Options) *Reader {
	if len(spec.parsers) == 0 {
		return nil
	}
	if opts.Max <= 0 {
		opts.Max = MaxFindings
	}
	r := &Reader{opts: opts, seen: map[string]bool{}}
	ps := make(multi, 0, len(spec.parsers))
	for _, mk := range spec.parsers {
		ps = append(ps, mk(r.add, opts))
	}
	r.parser = ps
	if len(ps) == 1 {
		r.parser = ps[0]
	}
	return r
}

// Line implements runner.OutputReader. It runs on the goroutine that drains the gate's pipe,
// where a panic would end gauntlet itself: a parser that panics is switched off for the rest of
// the gate, and the findings it had are kept.
func (r *Reader) Line(line []byte) {
	if r.broken {
		return
	}
	defer r.recoverParser()
	if len(line) > maxLineBytes {
		line = line[:maxLineBytes]
	}
	r.parser.line(strings.TrimRight(string(line), "\r"))
}

// Finish implements runner.OutputReader.
func (r *Reader) Finish(o *gates.Outcome) {
	if !r.broken {
		func() {
			defer r.recoverParser()
			r.parser.flush()
		}()
	}
	o.Findings = r.Findings()
	o.IgnoredFindings = r.ignored
}

func (r *Reader) recoverParser() {
	if p := recover(); p != nil {
		r.broken = true
	}
}

// Findings are the kept findings in the order they were printed.
func (r *Reader) Findings() []gates.Finding {
	all := slices.Concat(r.errs, r.others)
	slices.SortFunc(all, func(a, b ranked) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]gates.Finding, len(all))
	for i, k := range all {
		out[i] = k.f
	}
	return out
}

// Dropped is how many findings did not fit under the cap.
func (r *Reader) Dropped() int { return r.dropped }

// add is what every parser emits into: it cleans the finding, applies new_only, removes repeats
// (several parsers may read the same line) and keeps within the cap.
func (r *Reader) add(f gates.Finding) {
	f = r.clean(f)
	if f.Message == "" && f.File == "" {
		return
	}
	if r.opts.Added != nil && !r.isNew(f) {
		r.ignored++
		return
	}
	// One finding per place and message, but per test too: tests that share an assertion line
	// (a table-driven helper) are each a failure to fix. A finding without a rule, from another
	// parser reading the same line, repeats one with it.
	loc := f.File + "\x00" + itoa(f.Line) + "\x00" + itoa(f.Column) + "\x00" + f.Message
	key := loc + "\x00" + f.Rule
	if r.seen[key] || (f.Rule == "" && r.seen[loc+"\x00\x01"]) {
		return
	}
	k := ranked{seq: r.seq, f: f}
	r.seq++
	switch {
	case len(r.errs)+len(r.others) < r.opts.Max:
	case f.Severity == SeverityError && len(r.others) > 0:
		// The latest non-error makes room: errors are what a gate fails on.
		last := r.others[len(r.others)-1]
		delete(r.seen, last.f.File+"\x00"+itoa(last.f.Line)+"\x00"+itoa(last.f.Column)+"\x00"+last.f.Message+"\x00"+last.f.Rule)
		r.others = r.others[:len(r.others)-1]
		r.dropped++
	default:
		r.dropped++
		return
	}
	r.seen[key] = true
	if f.Rule != "" {
		r.seen[loc+"\x00\x01"] = true // some rule has it
	}
	if f.Severity == SeverityError {
		r.errs = append(r.errs, k)
	} else {
		r.others = append(r.others, k)
	}
}

func (r *Reader) isNew(f gates.Finding) bool {
	switch {
	case f.File == "":
		return true
	case !r.exists(f.File):
		// A "file" that is not in the project (a misread line, a path in a dependency) cannot
		// be attributed to the change or excused by it: it counts, so the exit code decides.
		return true
	case f.Line <= 0:
		return r.opts.Added.TouchesFile(f.File, r.opts.Root)
	default:
		_, ok := r.opts.Added.Locate(f.File, f.Line, r.opts.Root)
		return ok
	}
}

// maxExistsCache bounds the files whose existence a reader remembers.
const maxExistsCache = 4096

// exists reports whether a root-relative (or absolute) file is in the project, remembering the
// answer for the files seen most, so that a thousand findings on one file cost one stat.
func (r *Reader) exists(file string) bool {
	if ok, seen := r.existsCache[file]; seen {
		return ok
	}
	p := file
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.opts.Root, filepath.FromSlash(file))
	}
	info, err := os.Stat(p)
	ok := err == nil && info.Mode().IsRegular()
	if r.existsCache == nil {
		r.existsCache = map[string]bool{}
	}
	if len(r.existsCache) < maxExistsCache {
		r.existsCache[file] = ok
	}
	return ok
}

func (r *Reader) clean(f gates.Finding) gates.Finding {
	f.File = r.rootRelative(termtext.Cap(strings.TrimSpace(f.File), maxFileBytes))
	f.Message = termtext.Cap(strings.TrimSpace(termtext.Clean(f.Message)), MaxMessageBytes)
	f.Rule = termtext.Cap(termtext.Line(f.Rule), maxRuleBytes)
	f.Line = max(f.Line, 0)
	f.Column = max(f.Column, 0)
	if f.Line == 0 {
		f.Column = 0
	}
	switch f.Severity {
	case SeverityError, SeverityWarning, SeverityInfo:
	default:
		f.Severity = SeverityError
	}
	return f
}

// rootRelative rewrites a path the tool printed relative to the gate's dir (or absolute) as
// relative to the project root. A path outside the root is made absolute when the root is known
// (a report resolving "../x.go" against the checkout would point at another file), and stays as
// printed otherwise.
func (r *Reader) rootRelative(file string) string {
	if file == "" {
		return ""
	}
	file = filepath.ToSlash(file)
	if path.IsAbs(file) {
		if r.opts.Root == "" {
			return path.Clean(file)
		}
		rel, err := filepath.Rel(r.opts.Root, filepath.FromSlash(file))
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return path.Clean(file)
		}
		return filepath.ToSlash(rel)
	}
	joined := path.Join(filepath.ToSlash(r.opts.Dir), file)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		if r.opts.Root == "" {
			return path.Clean(file)
		}
		return filepath.ToSlash(filepath.Join(r.opts.Root, filepath.FromSlash(joined)))
	}
	return joined
}
