package review

import (
	"slices"
	"testing"
)

func TestReviewerEnvKeepsOnlyWhatTheCLINeeds(t *testing.T) {
	inherited := []string{
		"PATH=/usr/bin", "HOME=/home/u", "LANG=C.UTF-8", "LC_ALL=C", "HTTPS_PROXY=http://proxy:3128",
		"no_proxy=localhost", "SSL_CERT_FILE=/etc/ca.pem", "NODE_EXTRA_CA_CERTS=/etc/ca.pem", "TMPDIR=/tmp",
		"AWS_SECRET_ACCESS_KEY=aws-secret", "GITHUB_TOKEN=gh-token", "DATABASE_URL=postgres://u:p@db",
		"ANTHROPIC_API_KEY=sk-ant", "ANTHROPIC_BASE_URL=http://127.0.0.1:1", "CLAUDE_CONFIG_DIR=/c",
		"OPENAI_API_KEY=sk-oai", "OPENAI_BASE_URL=http://127.0.0.1:2", "CODEX_HOME=/codex",
		"GEMINI_API_KEY=gem", "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:3", "GOOGLE_CLOUD_PROJECT=p",
		"GAUNTLET=1", "GAUNTLET_RUN_ID=r", "GAUNTLET_GATE=review", "GAUNTLET_HOOK_EVENT=Stop",
		"GOFLAGS=-mod=mod", "MY_REVIEW_SETTING=x",
	}
	explicit := []string{"MY_REVIEW_SETTING=x", "GOFLAGS=-mod=mod"}
	common := []string{"PATH=/usr/bin", "HOME=/home/u", "LANG=C.UTF-8", "LC_ALL=C", "HTTPS_PROXY=http://proxy:3128",
		"no_proxy=localhost", "SSL_CERT_FILE=/etc/ca.pem", "NODE_EXTRA_CA_CERTS=/etc/ca.pem", "TMPDIR=/tmp"}
	gauntlet := []string{"GAUNTLET=1", "GAUNTLET_RUN_ID=r", "GAUNTLET_GATE=review", "GAUNTLET_HOOK_EVENT=Stop",
		"GOFLAGS=-mod=mod", "MY_REVIEW_SETTING=x"}
	for _, tc := range []struct {
		cli      string
		provider []string
	}{
		{CLIClaude, []string{"ANTHROPIC_API_KEY=sk-ant", "ANTHROPIC_BASE_URL=http://127.0.0.1:1", "CLAUDE_CONFIG_DIR=/c"}},
		{CLICodex, []string{"OPENAI_API_KEY=sk-oai", "OPENAI_BASE_URL=http://127.0.0.1:2", "CODEX_HOME=/codex"}},
		{CLIGemini, []string{"GEMINI_API_KEY=gem", "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:3", "GOOGLE_CLOUD_PROJECT=p"}},
	} {
		got := reviewerEnv(tc.cli, inherited, explicit)
		want := slices.Concat(common, tc.provider, gauntlet)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.cli, got, want)
		}
	}
}

// A variable the gate's env sets explicitly is passed even when its name looks secret: the
// config's author chose it.
func TestReviewerEnvPassesExplicitEntries(t *testing.T) {
	got := reviewerEnv(CLICodex, []string{"PATH=/bin", "FAKE_OPENAI_KEY=k"}, []string{"FAKE_OPENAI_KEY=k"})
	if !slices.Contains(got, "FAKE_OPENAI_KEY=k") {
		t.Errorf("explicit entry dropped: %q", got)
	}
}

// A custom reviewer is the config author's own command, like a check gate: it keeps the gate's
// whole environment.
func TestReviewerEnvCustomKeepsAll(t *testing.T) {
	in := []string{"PATH=/bin", "REVIEW_SERVICE_TOKEN=t"}
	if got := reviewerEnv("./tools/review", in, nil); !slices.Equal(got, in) {
		t.Errorf("custom reviewer env = %q", got)
	}
}
