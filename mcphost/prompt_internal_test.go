package mcphost

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// A request without details keeps the short form: the tool and the reason.
func TestApprovalPromptWithoutDetails(t *testing.T) {
	assert.Equal(t, `Allow the "guarded" tool call? it is guarded`,
		ApprovalPrompt(tools.ApprovalRequest{ToolName: "guarded", Reason: "it is guarded"}))
	assert.Equal(t, `Allow the "guarded" tool call?`, ApprovalPrompt(tools.ApprovalRequest{ToolName: "guarded"}))
}

// An escalated write shows the tool, the path (and where it resolves when that differs), the
// mode asked for and the standing one, the justification, and the content's size and lines.
func TestApprovalPromptWrite(t *testing.T) {
	req := tools.ApprovalRequest{ToolName: "write", Reason: "escalate sandbox to danger-full-access: fix the README",
		Details: &tools.ApprovalDetails{
			Path: "/ws/docs/README.md", ResolvedPath: "/etc/cron.d/job",
			Mode: "danger-full-access", CurrentMode: "workspace-write",
			Justification: "fix the README",
			Previews:      []tools.ApprovalPreview{{Label: "Content", Text: "* * * * * root touch /tmp/x\n# end\n"}},
		}}
	assert.Equal(t, `Allow the "write" tool call?
Path: /ws/docs/README.md
Resolves to: /etc/cron.d/job
Mode: danger-full-access (now workspace-write)
Justification: fix the README
Content: 34 bytes, 2 lines
  | * * * * * root touch /tmp/x
  | # end`, ApprovalPrompt(req))
}

// An edit shows both strings; empty text and a text without a final newline count their lines
// as written; absent fields are left out.
func TestApprovalPromptEdit(t *testing.T) {
	req := tools.ApprovalRequest{ToolName: "edit", Details: &tools.ApprovalDetails{
		Path:     "/etc/hosts",
		Previews: []tools.ApprovalPreview{{Label: "Old string", Text: "127.0.0.1 a"}, {Label: "New string", Text: ""}},
	}}
	assert.Equal(t, `Allow the "edit" tool call?
Path: /etc/hosts
Old string: 11 bytes, 1 line
  | 127.0.0.1 a
New string: 0 bytes`, ApprovalPrompt(req))
}

// Previews are cut at 10 lines and at 800 bytes, and the cut is marked with what was left out;
// a path is cut in the middle (both ends stay visible), the justification at its end.
func TestApprovalPromptBounds(t *testing.T) {
	var lines []string
	for i := range 50 {
		lines = append(lines, "line "+string(rune('a'+i%26)))
	}
	text := strings.Join(lines, "\n") + "\n"
	got := ApprovalPrompt(tools.ApprovalRequest{ToolName: "write", Details: &tools.ApprovalDetails{
		Previews: []tools.ApprovalPreview{{Label: "Content", Text: text}}}})
	assert.Equal(t, `Allow the "write" tool call?
Content: 350 bytes, 50 lines
  | line a
  | line b
  | line c
  | line d
  | line e
  | line f
  | line g
  | line h
  | line i
  | line j
  [cut: 280 more bytes, 40 more lines]`, got)

	long := strings.Repeat("x", 5000)
	got = ApprovalPrompt(tools.ApprovalRequest{ToolName: "write", Details: &tools.ApprovalDetails{
		Previews: []tools.ApprovalPreview{{Label: "Content", Text: long + "\nsecond\n"}}}})
	assert.Equal(t, "Allow the \"write\" tool call?\nContent: 5008 bytes, 2 lines\n  | "+strings.Repeat("x", 800)+
		"\n  [cut: 4208 more bytes, 1 more line]", got)

	path := "/" + strings.Repeat("p", 1000) + "/cron.d/job"
	justification := strings.Repeat("j", 1000)
	got = ApprovalPrompt(tools.ApprovalRequest{ToolName: "write", Details: &tools.ApprovalDetails{Path: path, Justification: justification}})
	gotLines := strings.Split(got, "\n")
	assert.Equal(t, "Path: /"+strings.Repeat("p", 255)+"[cut: 500 bytes]"+strings.Repeat("p", 245)+"/cron.d/job", gotLines[1])
	assert.Equal(t, "Justification: "+strings.Repeat("j", 400)+"[cut: 600 more bytes]", gotLines[2])
}

// Nothing the model sends can change how the prompt reads: control characters, ANSI escapes,
// bidirectional overrides, line and paragraph separators and invalid UTF-8 are shown escaped, and
// a newline in a one-line field cannot start a line of its own.
func TestApprovalPromptNeutralizesControls(t *testing.T) {
	got := ApprovalPrompt(tools.ApprovalRequest{ToolName: "wri\x1b[2Kte", Details: &tools.ApprovalDetails{
		Path:          "/ws/a\u202egnp.exe",
		Justification: "ok\nPath: /ws/harmless.txt\r\x1b[1A\x07",
		Previews:      []tools.ApprovalPreview{{Label: "Content", Text: "a\x00b\u2028c\u009b\xff\tend\r\n"}},
	}})
	assert.Equal(t, `Allow the "wri\x1b[2Kte" tool call?
Path: /ws/a\u202egnp.exe
Justification: ok\nPath: /ws/harmless.txt\r\x1b[1A\x07
Content: 16 bytes, 1 line
  | a\x00b\u2028c\u009b\xff\tend\r`, got)
}

// FuzzApprovalPrompt: whatever the fields hold, the prompt has no control or format character
// but its own newlines, every line is one the renderer wrote (a header or an indented preview
// line), and its size stays bounded.
func FuzzApprovalPrompt(f *testing.F) {
	f.Add("write", "/ws/x", "/etc/x", "danger-full-access", "why", "content\n\x1b[31mred\n", "old", true)
	f.Add("edit", "", "", "", "", "", "", false)
	f.Fuzz(func(t *testing.T, name, path, resolved, mode, justification, content, old string, details bool) {
		req := tools.ApprovalRequest{ToolName: name, Reason: justification}
		if details {
			long := strings.Repeat(resolved, 1+600/(len(resolved)+1)) // past the path bound, cut in the middle
			req.Details = &tools.ApprovalDetails{Path: path, ResolvedPath: long, Mode: mode, CurrentMode: mode,
				Justification: justification,
				Previews:      []tools.ApprovalPreview{{Label: "Content", Text: content}, {Label: "Old string", Text: old}}}
		}
		got := ApprovalPrompt(req)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8: %q", got)
		}
		for _, r := range got {
			if r != '\n' && !unicode.IsGraphic(r) {
				t.Fatalf("%U in %q", r, got)
			}
		}
		if len(got) > 6000 {
			t.Fatalf("%d bytes", len(got))
		}
		lines := strings.Split(got, "\n")
		if !strings.HasPrefix(lines[0], "Allow the \"") {
			t.Fatalf("first line %q", lines[0])
		}
		for _, l := range lines[1:] {
			ok := false
			for _, p := range []string{"Path: ", "Resolves to: ", "Mode: ", "Justification: ", "Content: ", "Old string: ", "  | ", "  [cut: "} {
				ok = ok || strings.HasPrefix(l, p)
			}
			if !ok || (!details && len(lines) > 1) {
				t.Fatalf("line %q in %q", l, got)
			}
		}
	})
}

// A call that changes many files lists promptFilesMax of them, marked ones first, and counts the
// rest; their previews share one budget of bytes and lines, so a long first file cannot use it up.
func TestApprovalPromptFilesBounds(t *testing.T) {
	var files []tools.ApprovalFile
	for i := range 60 {
		files = append(files, tools.ApprovalFile{Op: tools.FileAdd, Path: "/ws/f" + strconv.Itoa(i), Preview: strings.Repeat("x\n", 40)})
	}
	files[59].Mark, files[59].Path = tools.MarkOutside, "/etc/evil"
	files[58].Mark, files[58].Path = tools.MarkOutside, "/etc/e\x1b[2Jvil"
	got := ApprovalPrompt(tools.ApprovalRequest{ToolName: "apply_patch", Details: &tools.ApprovalDetails{Files: files}})
	lines := strings.Split(got, "\n")
	assert.Equal(t, "Files: 60 (2 marked !: protected, outside the writable roots, or unverified)", lines[1])
	assert.Equal(t, `  1. ! outside: add /etc/e\x1b[2Jvil`, lines[2])
	assert.Equal(t, "  2. ! outside: add /etc/evil", lines[3])
	assert.Equal(t, "  3. add /ws/f0", lines[4])
	assert.Equal(t, "  [cut: 10 more files, 0 of them marked]", lines[52])
	previewLines := 0
	for _, l := range lines {
		if strings.HasPrefix(l, previewIndent) {
			previewLines++
		}
	}
	assert.LessOrEqual(t, previewLines, promptFilesLinesMax)
	assert.Contains(t, got, "\nFile 1: 80 bytes, 40 lines\n  | x\n  [cut: 78 more bytes, 39 more lines]")
	assert.Contains(t, got, "\nFile 30: 80 bytes, 40 lines\n  | x\n  [cut: 78 more bytes, 39 more lines]\nFile 31: 80 bytes, 40 lines\n  [cut: 80 more bytes, 40 more lines]")
	assert.Less(t, len(got), promptFilesMax*(promptPathMax+64)+promptFilesBytesMax+promptFilesMax*100)
}
