package review

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestExtractVerdict(t *testing.T) {
	finding := Finding{File: "a.go", Line: 3, Severity: "error", Message: "nil map"}
	tests := []struct {
		name string
		text string
		want *Verdict
	}{
		{"bare object", `{"status":"pass","findings":[]}`, &Verdict{Status: "pass", Findings: []Finding{}}},
		{"surrounding whitespace and upper case status", "\n  {\"status\":\"FAIL\",\"findings\":[{\"file\":\"a.go\",\"line\":3,\"severity\":\"error\",\"message\":\"nil map\"}]}\n",
			&Verdict{Status: "fail", Findings: []Finding{finding}}},
		{"fenced block in prose", "Here is my review.\n```json\n{\"status\": \"fail\", \"findings\": [{\"file\": \"a.go\", \"line\": \"3\", \"severity\": \"error\", \"message\": \"nil map\"}]}\n```\nThanks!",
			&Verdict{Status: "fail", Findings: []Finding{finding}}},
		{"first fenced block that is a verdict", "```json\n{\"note\": 1}\n```\n```json\n{\"status\": \"pass\"}\n```\n```json\n{\"status\": \"fail\"}\n```",
			&Verdict{Status: "pass"}},
		{"last balanced object with a status", `I considered {"status":"fail"} at first, but {"x": {"y": 1}} and finally {"status":"pass","findings":[]} it is. {not json}`,
			&Verdict{Status: "pass", Findings: []Finding{}}},
		{"braces inside strings", `Verdict: {"status":"fail","findings":[{"file":"b.go","line":7,"severity":"warning","message":"use } carefully {"}]}`,
			&Verdict{Status: "fail", Findings: []Finding{{File: "b.go", Line: 7, Severity: "warning", Message: "use } carefully {"}}}},
		{"prose with an apostrophe before the object", `It's fine: {"status":"pass"}`, &Verdict{Status: "pass"}},
		{"line that is not a number", `{"status":"fail","findings":[{"file":"c.go","line":"n/a","message":"m"}]}`,
			&Verdict{Status: "fail", Findings: []Finding{{File: "c.go", Message: "m"}}}},
		{"unknown status", `{"status":"maybe","findings":[]}`, nil},
		{"no status", `{"findings":[]}`, nil},
		{"no JSON", "Looks good to me!", nil},
		{"empty", "", nil},
		{"shape description is not a verdict", answerFormat, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ExtractVerdict(tt.text)
			if ok != (tt.want != nil) {
				t.Fatalf("ok = %v, verdict %+v", ok, got)
			}
			if tt.want != nil && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestLooksSecret(t *testing.T) {
	for p, want := range map[string]bool{
		".env": true, "config/.env.local": true, ".envrc": true, "certs/server.pem": true, "tls/server.KEY": true,
		"home/.ssh/id_rsa": true, "id_ed25519.pub": true, "id_ecdsa_sk": true,
		"pkg/id_gen.go": false, "id_test.go": false,
		".npmrc": true, "web/.npmrc": true, ".netrc": true, "_netrc": true, ".pypirc": true, ".git-credentials": true,
		"certs/client.p12": true, "certs/CLIENT.PFX": true, "android/release.jks": true, "app.keystore": true,
		"home/.aws/credentials": true, ".aws/config": true, "home/.config/gcloud/application_default_credentials.json": true,
		".config/gcloud/legacy_credentials/me@example.com/adc.json": true, ".azure/msal_token_cache.json": true,
		".docker/config.json": true, "ops/.kube/config": true, "keys/my-project-service-account.json": true,
		"gcp-credentials.json": true, "client_secret_1234.apps.googleusercontent.com.json": true,
		"infra/terraform.tfstate": true, "putty.ppk": true, "vault.kdbx": true, ".pgpass": true,
		"config.json": false, "kube/config.go": false, "docker/config.json": false, "aws/credentials.go": false,
		"src/credentials.ts": false, "secret_test.go": false, "package.json": false, "tsconfig.json": false,
		"env.go": false, "keys.go": false, "monkey.go": false, "docs/identity.md": false, "src/environment.ts": false,
	} {
		if got := LooksSecret(p); got != want {
			t.Errorf("LooksSecret(%q) = %v, want %v", p, got, want)
		}
	}
}

// The verdict search does work linear in the output: 300 KB of nested braces from a custom
// reviewer used to cost 50,000 decodes of ever longer spans (29.5 s against a 5 s timeout).
func TestExtractVerdictIsLinear(t *testing.T) {
	parsed := 0
	decode = func(data []byte, v any) error {
		parsed += len(data)
		return json.Unmarshal(data, v)
	}
	defer func() { decode = json.Unmarshal }()

	nested := strings.Repeat(`{"a":`, 60_000) + "1" + strings.Repeat("}", 60_000)
	text := "review:\n" + nested + "\n" + `{"status":"fail","findings":[]}` + "\n"
	v, ok := ExtractVerdict(text)
	if !ok || v.Status != "fail" {
		t.Fatalf("verdict after nested braces: %v, %v", v, ok)
	}
	if limit := 4*len(text) + 1<<20; parsed > limit {
		t.Fatalf("decoded %d bytes for %d of output, want at most %d", parsed, len(text), limit)
	}

	parsed = 0
	if _, ok := ExtractVerdict(nested + "\n"); ok {
		t.Fatal("found a verdict in braces alone")
	}
	if limit := 4*len(nested) + 1<<20; parsed > limit {
		t.Fatalf("decoded %d bytes for %d of output without a verdict, want at most %d", parsed, len(nested), limit)
	}
}
