package main_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	imagepng "image/png"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/sandbox/sandboxtest"
)

// read_image over `run`: the image block is {"type":"image","mediaType","data"}, text joins the text
// blocks only, value is the canonical value and meta the presentation meta; refusals are plain
// error lines (code and errorName null); a call with no session has no model route; the model is a
// session's header from the line that sets it on, per session.
func TestRunReadImageLines(t *testing.T) {
	dir := realTemp(t)
	img := filepath.Join(dir, "pixel.png")
	var png bytes.Buffer
	require.NoError(t, imagepng.Encode(&png, image.NewGray(image.Rect(0, 0, 3, 2))))
	writeFile(t, img, png.String())
	writeFile(t, filepath.Join(dir, "notes.txt"), "x\n")
	p := startRun(t, "--cwd", dir)

	raw := p.send(`{"id":1,"tool":"read_image","args":{"file_path":"pixel.png"}}`)
	var line map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(raw), &line))
	keys := []string{}
	dec := json.NewDecoder(strings.NewReader(raw))
	_, _ = dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		require.NoError(t, dec.Decode(&skip))
	}
	assert.Equal(t, []string{"id", "tool", "isError", "text", "content", "code", "errorName", "value", "meta"}, keys, "field order")
	var r struct {
		IsError bool   `json:"isError"`
		Text    string `json:"text"`
		Content []struct {
			Type      string  `json:"type"`
			Text      *string `json:"text"`
			MediaType *string `json:"mediaType"`
			Data      *string `json:"data"`
		} `json:"content"`
		Code, ErrorName *string
		Value           map[string]any `json:"value"`
		Meta            map[string]any `json:"meta"`
	}
	require.NoError(t, json.Unmarshal([]byte(raw), &r))
	require.False(t, r.IsError, r.Text)
	require.Len(t, r.Content, 2)
	assert.Equal(t, "text", r.Content[0].Type)
	assert.Equal(t, r.Text, *r.Content[0].Text, "text joins the text blocks only")
	assert.Equal(t, "<path>"+img+"</path>\n<type>image</type>\n<content>\nimage/png image, 3x2 px, 88 bytes\n</content>", r.Text)
	assert.Equal(t, "image", r.Content[1].Type)
	assert.Nil(t, r.Content[1].Text, "an image block has no text key")
	require.NotNil(t, r.Content[1].MediaType)
	assert.Equal(t, "image/png", *r.Content[1].MediaType)
	data, err := base64.StdEncoding.DecodeString(*r.Content[1].Data)
	require.NoError(t, err)
	cfg, err := imagepng.DecodeConfig(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, [2]int{3, 2}, [2]int{cfg.Width, cfg.Height})
	assert.Nil(t, r.Code)
	assert.Nil(t, r.ErrorName)
	assert.Equal(t, img, r.Value["path"])
	im := r.Value["image"].(map[string]any)
	assert.Equal(t, "image/png", im["mediaType"])
	assert.Equal(t, float64(88), im["bytes"])
	assert.Equal(t, map[string]any{"path": img}, r.Meta)

	refusal := func(l runLine, text string) {
		t.Helper()
		assert.True(t, l.IsError)
		assert.Equal(t, text, l.Text)
		assert.Nil(t, l.Code, "a read_image remedy is a plain error")
		assert.Nil(t, l.ErrorName)
		assert.Equal(t, "null", string(l.Value))
		assert.Equal(t, "null", string(l.Meta))
		require.Len(t, l.Content, 1)
	}
	refusal(p.call(`{"id":2,"tool":"read_image","args":{"file_path":"pixel.png"},"session":null}`),
		`Error: cannot read "pixel.png" as an image: the current model route could not be resolved`)
	refusal(p.call(`{"id":3,"tool":"read_image","args":{"file_path":"notes.txt"}}`),
		`Error: cannot read "notes.txt": the .txt extension does not declare a supported image format; read_image accepts PNG/JPEG/WebP/GIF files, including extension-less files in those formats`)
	refusal(p.call(`{"id":4,"tool":"read_image","args":{"file_path":"pixel.png"},"session":"t","model":"text-only"}`),
		`Error: cannot read "pixel.png" as an image: model "text-only" does not declare image input; switch to an image-capable model to read images`)
	refusal(p.call(`{"id":5,"tool":"read_image","args":{"file_path":"pixel.png"},"session":"t"}`),
		`Error: cannot read "pixel.png" as an image: model "text-only" does not declare image input; switch to an image-capable model to read images`)
	assert.False(t, p.call(`{"id":6,"tool":"read_image","args":{"file_path":"pixel.png"}}`).IsError, "another session keeps its model")
	assert.False(t, p.call(`{"id":7,"tool":"read_image","args":{"file_path":"pixel.png"},"session":"t","model":"default"}`).IsError,
		"the model switches back from that line on")
}

// Sessions of one sandboxed run share nothing but the process: an escalation granted to one call of
// one session leaves every later call (of any session) under the standing mode; a call with no
// session is fenced and cannot escalate.
func TestRunSandboxedSessionsDoNotShareGrants(t *testing.T) {
	ws, out := realTemp(t), sandboxtest.OutsideDir(t)
	p := startRun(t, "--profile", "sandboxed", "--cwd", ws, "--approve", "allow-once")
	write := func(session any, name string, escalate bool) runLine {
		args := map[string]any{"file_path": filepath.Join(out, name), "content": "x\n"}
		if escalate {
			args["sandbox_permissions"], args["justification"] = "danger-full-access", "The user asked."
		}
		return p.call(jsonLine(map[string]any{"id": name, "tool": "write", "args": args, "session": session}))
	}
	require.False(t, write("a", "granted.txt", true).IsError)
	requireDeniedLine(t, write("b", "b.txt", false))
	requireDeniedLine(t, write("a", "a.txt", false))
	requireDeniedLine(t, write(nil, "none.txt", false))
	r := write(nil, "none.txt", true)
	assert.Equal(t, `Error: sandbox escalation to "danger-full-access" requires approval, but the call has no agent to route it through`, r.Text)
	assert.Equal(t, []string{"granted.txt"}, entries(t, out))
	// Inside the workspace a call with no session writes (agentless calls use the configured root).
	r = p.call(jsonLine(map[string]any{"id": 9, "tool": "write", "args": map[string]any{"file_path": "in.txt", "content": "in\n"}, "session": nil}))
	require.False(t, r.IsError, r.Text)
	assert.Equal(t, "in\n", readFile(t, filepath.Join(ws, "in.txt")))
}
