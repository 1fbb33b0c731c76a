package main_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadmeRunExample runs the README's `harness run` example and compares every output line byte
// for byte (with the example's /tmp/demo replaced by the test directory).
func TestReadmeRunExample(t *testing.T) {
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, "notes.txt"), "hello\nworld\n")
	in := strings.Join([]string{
		`{"id":1,"tool":"read","args":{"file_path":"notes.txt"}}`,
		`{"id":2,"tool":"edit","args":{"file_path":"notes.txt","old_string":"world","new_string":"there"}}`,
		`{"id":3,"tool":"write","args":{"file_path":"notes.txt","content":"x"},"session":"other"}`,
	}, "\n") + "\n"
	want := strings.Join([]string{
		`{"id":1,"tool":"read","isError":false,"text":"<path>/tmp/demo/notes.txt</path>\n<type>file</type>\n<content>\n1: hello\n2: world\n\n(End of file - total 2 lines)\n</content>","content":[{"type":"text","text":"<path>/tmp/demo/notes.txt</path>\n<type>file</type>\n<content>\n1: hello\n2: world\n\n(End of file - total 2 lines)\n</content>"}],"code":null,"errorName":null,"value":{"path":"/tmp/demo/notes.txt","offset":1,"lines":[{"number":1,"text":"hello"},{"number":2,"text":"world"}],"totalLines":2},"meta":{"path":"/tmp/demo/notes.txt","offset":1,"lines":[{"number":1,"text":"hello"},{"number":2,"text":"world"}],"totalLines":2}}`,
		`{"id":2,"tool":"edit","isError":false,"text":"The file /tmp/demo/notes.txt has been updated successfully.","content":[{"type":"text","text":"The file /tmp/demo/notes.txt has been updated successfully."}],"code":null,"errorName":null,"value":{"path":"/tmp/demo/notes.txt","before":"hello\nworld\n","after":"hello\nthere\n"},"meta":{"diffs":[{"path":"notes.txt","oldText":"hello\nworld","newText":"hello\nthere"}]}}`,
		`{"id":3,"tool":"write","isError":true,"text":"Error: cannot modify \"/tmp/demo/notes.txt\": file has not been read — read the file, then retry","content":[{"type":"text","text":"Error: cannot modify \"/tmp/demo/notes.txt\": file has not been read — read the file, then retry"}],"code":"FS_NOT_OBSERVED","errorName":"FsError","value":null,"meta":null}`,
	}, "\n") + "\n"
	out, stderr, code := runHarness(t, in, "run", "--cwd", dir)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, strings.ReplaceAll(want, "/tmp/demo", dir), out)
}
