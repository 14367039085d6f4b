// Package report shows a run: the JSON report model, the text, JUnit and GitHub renderings of it,
// and the live progress view printed while gates run.
package report
