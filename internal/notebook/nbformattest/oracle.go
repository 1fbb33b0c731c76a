// Package nbformattest runs nbformat itself (Python's, /usr/bin/python3 with the nbformat
// package: Debian's python3-nbformat) as the oracle of the notebook tests: what nbformat writes
// for a notebook after an edit, and whether nbformat.validate accepts it. Without it the tests
// that need it skip, unless CORDON_NBFORMAT=required (scripts/check sets it), when they fail.
package nbformattest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
)

//go:embed oracle.py
var script string

// Python is the interpreter the oracle runs under.
const Python = "/usr/bin/python3"

// Case is one question to nbformat: Text read (nbformat.reads, no conversion), edited as Mode
// says (docs/notebooks.md), then written (nbformat.writes and the final newline of
// nbformat.write). Mode "none" writes Text back unedited; "write" writes Text given as plain JSON
// data through nbformat.from_dict, as Jupyter saves a notebook its front end sent.
type Case struct {
	Text   string `json:"text"`
	Mode   string `json:"mode"`
	Index  int    `json:"index"`
	Source string `json:"source"`
	Type   string `json:"type"`
	ID     string `json:"id"`
	// Ours, when not nil, is a text nbformat reads and compares with the notebook it wrote.
	Ours *string `json:"ours"`
}

// Answer is nbformat's answer to a Case: the bytes it writes and its validation error ("" when
// valid).
type Answer struct {
	Text    string  `json:"text"`
	Invalid *string `json:"invalid"`
	// Same is whether nbformat read Ours as the notebook it wrote (nil without Ours).
	Same *bool `json:"same"`
}

// Require skips t (or fails it, under CORDON_NBFORMAT=required) when nbformat is not available.
func Require(t testing.TB) {
	t.Helper()
	if err := exec.Command(Python, "-c", "import nbformat").Run(); err != nil {
		if os.Getenv("CORDON_NBFORMAT") == "required" {
			t.Fatalf("nbformat is required (CORDON_NBFORMAT=required) but %s cannot import it: %v", Python, err)
		}
		t.Skipf("%s with nbformat is not available (apt-get install python3-nbformat): %v", Python, err)
	}
}

// Ask answers every case in one run of the oracle.
func Ask(t testing.TB, cases []Case) []Answer {
	t.Helper()
	Require(t)
	req, err := json.Marshal(map[string]any{"cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(Python, "-c", script)
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("nbformat oracle: %v\n%s", err, stderr.String())
	}
	var answers []Answer
	if err := json.Unmarshal(out, &answers); err != nil {
		t.Fatalf("nbformat oracle answer: %v", err)
	}
	if len(answers) != len(cases) {
		t.Fatalf("nbformat oracle answered %d cases of %d", len(answers), len(cases))
	}
	return answers
}
