package runner

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/gates"
)

func TestJudgementApply(t *testing.T) {
	classified := gates.Result{Status: gates.StatusPass, Reason: "classified"}
	tests := []struct {
		name       string
		judged     *judgement
		severity   gates.Severity
		outcome    gates.Outcome
		wantStatus gates.Status
		wantReason string
	}{
		{"no judgement keeps the classification", nil, gates.SeverityError, gates.Outcome{}, gates.StatusPass, "classified"},
		{"fail", &judgement{gates.StatusFail, "2 findings"}, gates.SeverityError, gates.Outcome{}, gates.StatusFail, "2 findings"},
		{"fail of a warn gate warns", &judgement{gates.StatusFail, "2 findings"}, gates.SeverityWarn, gates.Outcome{}, gates.StatusWarn, "2 findings"},
		{"error stays error on a warn gate", &judgement{gates.StatusError, "no verdict"}, gates.SeverityWarn, gates.Outcome{}, gates.StatusError, "no verdict"},
		{"pass", &judgement{gates.StatusPass, "no findings"}, gates.SeverityError, gates.Outcome{}, gates.StatusPass, "no findings"},
		{"infra pattern turns a fail into error", &judgement{gates.StatusFail, "1 finding"}, gates.SeverityError,
			gates.Outcome{InfraMatch: "quota exceeded"}, gates.StatusError, "infrastructure problem: quota exceeded"},
		{"infra pattern leaves a pass alone", &judgement{gates.StatusPass, "no findings"}, gates.SeverityError,
			gates.Outcome{InfraMatch: "quota exceeded"}, gates.StatusPass, "no findings"},
		{"timeout outranks", &judgement{gates.StatusPass, "x"}, gates.SeverityError, gates.Outcome{TimedOut: true}, gates.StatusPass, "classified"},
		{"cancel outranks", &judgement{gates.StatusFail, "x"}, gates.SeverityError, gates.Outcome{Cancelled: true}, gates.StatusPass, "classified"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := classified
			tt.judged.apply(gates.Gate{Severity: tt.severity}, tt.outcome, &res)
			if res.Status != tt.wantStatus || res.Reason != tt.wantReason {
				t.Errorf("got %s %q, want %s %q", res.Status, res.Reason, tt.wantStatus, tt.wantReason)
			}
		})
	}
}
