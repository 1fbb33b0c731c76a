package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runLines runs `harness run` over in and returns its output lines decoded.
func runLines(t *testing.T, in string, args ...string) []map[string]json.RawMessage {
	t.Helper()
	out, stderr, code := runHarness(t, in, append([]string{"run"}, args...)...)
	require.Equal(t, 0, code, stderr)
	var got []map[string]json.RawMessage
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		got = append(got, m)
	}
	return got
}

// At the end of the input every line is answered: 50 writes then EOF give 50 answers and 50 files.
func TestRunHalfCloseAnswersEveryLine(t *testing.T) {
	dir := realTemp(t)
	var in strings.Builder
	for i := range 50 {
		fmt.Fprintf(&in, `{"id":%d,"tool":"write","args":{"file_path":"f%02d.txt","content":"x\n"}}`+"\n", i, i)
	}
	got := runLines(t, in.String(), "--cwd", dir)
	require.Len(t, got, 50)
	for i := range 50 {
		assert.Equal(t, fmt.Sprint(i), string(got[i]["id"]))
		assert.FileExists(t, filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)))
	}
}

// end_session releases a session's observations: a write after it is refused until the file is
// read again.
func TestRunEndSessionReleasesObservations(t *testing.T) {
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
	got := runLines(t, strings.Join([]string{
		`{"id":1,"tool":"read","args":{"file_path":"a.txt"},"session":"s1"}`,
		`{"id":2,"end_session":"s1"}`,
		`{"id":3,"tool":"write","args":{"file_path":"a.txt","content":"b\n"},"session":"s1"}`,
	}, "\n")+"\n", "--cwd", dir)
	require.Len(t, got, 3)
	assert.Equal(t, `{"ended":true,"session":"s1"}`, string(got[1]["value"]))
	assert.Equal(t, `"FS_NOT_OBSERVED"`, string(got[2]["code"]))
	assert.Equal(t, "a\n", readFile(t, filepath.Join(dir, "a.txt")))
}

// A line far over the limit is answered with an error line and skipped, without being held: a
// 1 GiB write line costs what one line at the limit does, and the run goes on.
func TestRunOverlongLineIsNotHeld(t *testing.T) {
	dir := realTemp(t)
	cmd := exec.Command(harnessBin, "run", "--cwd", dir, "--log-level", "error")
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	answered := make(chan struct{})
	release := sync.OnceFunc(func() { close(answered) })
	defer release()
	go func() {
		w := bufio.NewWriterSize(in, 1<<20)
		_, _ = io.WriteString(w, `{"id":1,"tool":"write","args":{"file_path":"big.txt","content":"`)
		chunk := strings.Repeat("x", 1<<20)
		for range 1024 {
			_, _ = io.WriteString(w, chunk)
		}
		_, _ = io.WriteString(w, `"}}`+"\n"+`{"id":2,"tool":"write","args":{"file_path":"small.txt","content":"s\n"}}`+"\n")
		_ = w.Flush()
		<-answered // stdin stays open so the run is still there to be measured
		_ = in.Close()
	}()
	var got []map[string]json.RawMessage
	sc := bufio.NewScanner(out)
	for len(got) < 2 && sc.Scan() {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m))
		got = append(got, m)
	}
	require.Len(t, got, 2)
	peak := peakRSS(t, cmd.Process.Pid) // the run's own (see TestServeFloodStaysBounded)
	release()
	assert.False(t, sc.Scan(), "nothing after the second answer")
	require.NoError(t, cmd.Wait())
	assert.Equal(t, `"INVALID_REQUEST"`, string(got[0]["code"]))
	assert.Contains(t, string(got[0]["text"]), "the line is longer than 16777216 bytes")
	assert.Equal(t, "2", string(got[1]["id"]))
	assert.NoFileExists(t, filepath.Join(dir, "big.txt"))
	assert.FileExists(t, filepath.Join(dir, "small.txt"))
	t.Logf("a 1 GiB line: peak RSS %.1f MiB", float64(peak)/(1<<20))
	assert.Less(t, peak, int64(256<<20), "peak RSS far under the line: it is never held (a 200 MB line peaked at 2.68 GB before)")
}

// A result never carries a file above the diff basis bound again: over it, write's after and edit's
// before and after are null (the meta's diffs are empty), in run and with --structured-content.
func TestResultsDropTextsAboveTheDiffBasis(t *testing.T) {
	dir := realTemp(t)
	config := filepath.Join(dir, "small-basis.yaml")
	writeFile(t, config, fmt.Sprintf("plugins:\n  - name: fs-local\n    config: { cwd: %q, diffBasisMaxBytes: 64 }\n"+
		"  - name: fs-observation-policy\n  - name: tools\n  - name: tool-fs\n", dir))
	big := strings.Repeat("x", 100) + "\n"
	in, _ := json.Marshal(map[string]any{"id": 1, "tool": "write", "args": map[string]any{"file_path": "big.txt", "content": big}})
	got := runLines(t, string(in)+"\n"+
		`{"id":2,"tool":"read","args":{"file_path":"big.txt"}}`+"\n"+
		`{"id":3,"tool":"edit","args":{"file_path":"big.txt","old_string":"xx","new_string":"y","replace_all":true}}`+"\n"+
		`{"id":4,"tool":"write","args":{"file_path":"small.txt","content":"s\n"}}`+"\n", "--config", config)
	require.Len(t, got, 4)
	assert.JSONEq(t, `{"path":"`+filepath.Join(dir, "big.txt")+`","operation":"create","before":null,"after":null}`, string(got[0]["value"]))
	assert.JSONEq(t, `{"path":"`+filepath.Join(dir, "big.txt")+`","before":null,"after":null}`, string(got[2]["value"]))
	assert.JSONEq(t, `{"diffs":[]}`, string(got[2]["meta"]))
	assert.JSONEq(t, `{"path":"`+filepath.Join(dir, "small.txt")+`","operation":"create","before":null,"after":"s\n"}`, string(got[3]["value"]))
	assert.Equal(t, strings.Repeat("y", 50)+"\n", readFile(t, filepath.Join(dir, "big.txt")))
}
