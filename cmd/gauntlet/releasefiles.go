package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The release build (.goreleaser.yaml's before hook) writes with `gauntlet release-files` what the
// packages ship besides the binary, from the command tree itself so that none of it drifts from
// the flags the binary has.

// releaseMaintainer signs the Debian changelog, as nfpm's maintainer signs the package.
const releaseMaintainer = "The gauntlet authors <gauntlet@users.noreply.github.com>"

type releaseFilesOptions struct {
	IO      *IOStreams
	dir     string
	version string
	date    string
}

func newReleaseFilesCmd(ios *IOStreams, root *cobra.Command) *cobra.Command {
	opts := &releaseFilesOptions{IO: ios}
	cmd := &cobra.Command{
		Use:    "release-files DIR",
		Short:  "Write the man pages, shell completions and Debian changelog the packages ship (for the release build)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: runE(func(_ *cobra.Command, args []string) error {
			opts.dir = args[0]
			return writeReleaseFiles(root, opts)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.version, "version", "", "the version released, as goreleaser's .Version (1.2.3, 1.2.4-snapshot)")
	f.StringVar(&opts.date, "date", "", "the release's date, RFC 3339 (goreleaser's .CommitDate): the files carry no other time; a date before 1970 means unknown, and today's stands in")
	return cmd
}

func writeReleaseFiles(root *cobra.Command, opts *releaseFilesOptions) error {
	if opts.version == "" || opts.date == "" {
		return usagef("--version and --date are required: the files name the version and its date")
	}
	date, err := time.Parse(time.RFC3339, opts.date)
	if err != nil {
		return usagef("--date: %v", err)
	}
	if date.Year() < 1970 {
		// goreleaser's zero commit date: it could not read the git state (a snapshot in a
		// checkout without a remote). The build's own date stands in.
		date = opts.IO.Now()
	}
	date = date.UTC()
	if err := writeManPages(root, filepath.Join(opts.dir, "manpages"), opts.version, date); err != nil {
		return err
	}
	if err := writeCompletions(root, filepath.Join(opts.dir, "completions")); err != nil {
		return err
	}
	return writeGzipped(filepath.Join(opts.dir, "deb", "changelog.gz"), debianChangelog(opts.version, date))
}

// writeManPages writes a page per visible command (gauntlet.1.gz, gauntlet-run.1.gz, ...).
func writeManPages(root *cobra.Command, dir, version string, date time.Time) error {
	var walk func(*cobra.Command) error
	walk = func(cmd *cobra.Command) error {
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() && !sub.IsAdditionalHelpTopicCommand() {
				if err := walk(sub); err != nil {
					return err
				}
			}
		}
		// The page's name is the command path with dashes, which its SEE ALSO references use.
		name := strings.ReplaceAll(cmd.CommandPath(), " ", "-") + ".1.gz"
		return writeGzipped(filepath.Join(dir, name), manPage(cmd, version, date))
	}
	return walk(root)
}

// manPage is cmd's page in roff, laid out as cobra's man page generator lays it out. It is
// written here rather than by that generator, whose markdown renderer's package initialisation
// cost every gauntlet command about a millisecond at start-up, for a command only the release
// build runs.
func manPage(cmd *cobra.Command, version string, date time.Time) []byte {
	cmd.InitDefaultHelpCmd()
	cmd.InitDefaultHelpFlag()
	dashed := strings.ReplaceAll(cmd.CommandPath(), " ", "-")
	var b bytes.Buffer
	fmt.Fprintf(&b, ".nh\n.TH \"GAUNTLET\" \"1\" \"%s\" \"gauntlet %s\" \"gauntlet manual\"\n\n", date.Format("Jan 2006"), roffEscape(version))
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n\n\n", roffEscape(dashed), roffEscape(cmd.Short))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n\\fB%s\\fP\n\n\n", roffEscape(cmd.UseLine()))
	description := cmd.Long
	if description == "" {
		description = cmd.Short
	}
	b.WriteString(".SH DESCRIPTION\n")
	writeManText(&b, description)
	b.WriteString("\n\n")
	writeManFlags(&b, "OPTIONS", cmd.NonInheritedFlags())
	writeManFlags(&b, "OPTIONS INHERITED FROM PARENT COMMANDS", cmd.InheritedFlags())
	var seeAlso []string
	if cmd.HasParent() {
		seeAlso = append(seeAlso, manRef(strings.ReplaceAll(cmd.Parent().CommandPath(), " ", "-")))
	}
	children := cmd.Commands()
	slices.SortFunc(children, func(a, b *cobra.Command) int { return strings.Compare(a.Name(), b.Name()) })
	for _, c := range children {
		if c.IsAvailableCommand() && !c.IsAdditionalHelpTopicCommand() {
			seeAlso = append(seeAlso, manRef(dashed+"-"+c.Name()))
		}
	}
	if len(seeAlso) > 0 {
		b.WriteString(".SH SEE ALSO\n" + strings.Join(seeAlso, ", ") + "\n")
	}
	return b.Bytes()
}

// writeManText writes text as roff paragraphs, one per blank-line-separated block; an indented
// line (an example, a list's item) starts a line of its own and keeps its indent.
func writeManText(b *bytes.Buffer, text string) {
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			b.WriteString("\n.PP\n")
		}
		for _, line := range strings.Split(strings.Trim(para, "\n"), "\n") {
			if trimmed := strings.TrimLeft(line, " \t"); trimmed != line {
				b.WriteString(".br\n" + strings.Repeat("\\ ", len(line)-len(trimmed)) + roffEscape(trimmed) + "\n")
				continue
			}
			b.WriteString(roffLine(line) + "\n")
		}
	}
}

// writeManFlags writes a section of flags as cobra's generator does: the names in bold, the
// default after =, and the usage indented below.
func writeManFlags(b *bytes.Buffer, title string, flags *pflag.FlagSet) {
	if !flags.HasAvailableFlags() {
		return
	}
	b.WriteString(".SH " + title + "\n")
	first := true
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Deprecated != "" || f.Hidden {
			return
		}
		if !first {
			b.WriteString(".PP\n")
		}
		first = false
		names := "\\fB--" + roffEscape(f.Name) + "\\fP"
		if f.Shorthand != "" && f.ShorthandDeprecated == "" {
			names = "\\fB-" + roffEscape(f.Shorthand) + "\\fP, " + names
		}
		value := f.DefValue
		if f.Value.Type() == "string" {
			value = fmt.Sprintf("%q", value)
		}
		if f.NoOptDefVal != "" {
			value = "[=" + value + "]"
		} else {
			value = "=" + value
		}
		b.WriteString(names + roffEscape(value) + "\n\t" + roffEscape(f.Usage) + "\n\n")
	})
	b.WriteString("\n")
}

// manRef is a reference to another page of section 1, in bold.
func manRef(page string) string { return "\\fB" + roffEscape(page) + "(1)\\fP" }

// roffEscape makes text print as it reads: a backslash is roff's escape character.
func roffEscape(text string) string { return strings.ReplaceAll(text, "\\", "\\e") }

// roffLine is a line of text that roff does not take for a request: one starting with a dot or
// an apostrophe is preceded by a zero-width character.
func roffLine(line string) string {
	line = roffEscape(line)
	if strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'") {
		return "\\&" + line
	}
	return line
}

// completionFiles are the completion scripts and the names each shell looks them up by.
var completionFiles = []struct {
	name  string
	write func(*cobra.Command, *bytes.Buffer) error
}{
	{"gauntlet.bash", func(c *cobra.Command, b *bytes.Buffer) error { return c.GenBashCompletionV2(b, true) }},
	{"_gauntlet", func(c *cobra.Command, b *bytes.Buffer) error { return c.GenZshCompletion(b) }},
	{"gauntlet.fish", func(c *cobra.Command, b *bytes.Buffer) error { return c.GenFishCompletion(b, true) }},
}

func writeCompletions(root *cobra.Command, dir string) error {
	for _, f := range completionFiles {
		var b bytes.Buffer
		if err := f.write(root, &b); err != nil {
			return fmt.Errorf("completion %s: %w", f.name, err)
		}
		if err := writeFile(filepath.Join(dir, f.name), b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// debianChangelog is the changelog Debian policy wants in every package (12.7): one entry, for
// this version, pointing at the release notes. The package is native (its version has no Debian
// revision), so the file is changelog.gz, and a pre-release is written as nfpm versions the deb,
// 1.2.4~rc.1, which sorts before 1.2.4.
func debianChangelog(version string, date time.Time) []byte {
	debVersion := version
	if release, pre, ok := strings.Cut(version, "-"); ok {
		debVersion = release + "~" + pre
	}
	// Lines within 80 columns (lintian: debian-changelog-line-too-long).
	return fmt.Appendf(nil, "gauntlet (%s) unstable; urgency=medium\n\n  * Release %s, notes at\n    https://github.com/gauntlet-dev/gauntlet/releases/tag/v%s\n\n -- %s  %s\n",
		debVersion, version, version, releaseMaintainer, date.Format(time.RFC1123Z))
}

// writeGzipped compresses as `gzip -9n` does: the best compression, and no name or time in the
// header, so that the same input gives the same bytes (lintian wants man pages and changelogs so).
func writeGzipped(path string, data []byte) error {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(data); err != nil {
		return fmt.Errorf("compress %s: %w", path, err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("compress %s: %w", path, err)
	}
	return writeFile(path, b.Bytes())
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("release files: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("release files: %w", err)
	}
	return nil
}
