package stophook

import (
	"testing"

	"github.com/gauntlet-dev/gauntlet/internal/envid"
	"github.com/gauntlet-dev/gauntlet/internal/session"
)

// A record an older gauntlet made keeps its environment in another form: it is not compared, or
// every Go setting would read as changed after an upgrade during the session.
func TestStartEnvironmentOfAnOlderRecordIsUnknown(t *testing.T) {
	old := &session.Record{Env: map[string]string{envid.GoEnvKey: "abc"}}
	if got := startEnvironment(old); got != nil {
		t.Errorf("an older record's environment was compared: %v", got)
	}
	now := &session.Record{Env: map[string]string{"GOFLAGS": "-mod=mod"}, EnvFormat: envid.Format}
	if got := startEnvironment(now); got["GOFLAGS"] != "-mod=mod" {
		t.Errorf("a record of this form was not compared: %v", got)
	}
}
