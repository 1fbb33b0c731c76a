package auditlog_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/examples/auditlog"
	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// echoTool is a test plugin registering "echo" (succeeds) and "boom" (fails with a coded error).
var echoTool = kernel.Define[struct{}]("test-echo", func(kc *kernel.Context, _ struct{}) error {
	rt := tools.Service.Must(kc)
	render := func(json.RawMessage, map[string]any) []tools.Content { return []tools.Content{tools.TextContent("ok")} }
	if _, err := rt.Register(kc, tools.Tool[json.RawMessage, map[string]any]{
		Name: "echo", Description: "Echo.",
		Execute: func(context.Context, json.RawMessage, *tools.Exec) (map[string]any, error) {
			return map[string]any{}, nil
		},
		Render: render,
	}.Definition()); err != nil {
		return err
	}
	_, err := rt.Register(kc, tools.Tool[json.RawMessage, map[string]any]{
		Name: "boom", Description: "Fail.",
		Execute: func(context.Context, json.RawMessage, *tools.Exec) (map[string]any, error) {
			return nil, tools.NewError("TestError", "TEST_BOOM", "boom", nil)
		},
		Render: render,
	}.Definition())
	return err
}, tools.Service.Dep())

// boot loads tools, the echo plugin and audit-log with cfg, and returns the runtime and a close
// function that shuts the kernel down (draining the async listener).
func boot(t *testing.T, cfg auditlog.Config) (*tools.Runtime, func()) {
	t.Helper()
	k := kernel.New(kernel.WithLogger(zaptest.NewLogger(t)))
	_, err := k.Root().Load(tools.Plugin, nil)
	require.NoError(t, err)
	_, err = k.Root().Load(echoTool, nil)
	require.NoError(t, err)
	f, err := k.Root().Load(auditlog.Plugin, &cfg)
	require.NoError(t, err)
	require.NoError(t, f.Err())
	rt, ok := tools.Service.Get(k.Root())
	require.True(t, ok)
	closed := false
	closeFn := func() {
		if !closed {
			closed = true
			require.NoError(t, k.Close(context.Background()))
		}
	}
	t.Cleanup(closeFn)
	return rt, closeFn
}

func readRecords(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), sc.Text())
		out = append(out, m)
	}
	require.NoError(t, sc.Err())
	return out
}

func TestAuditLogWritesOneLinePerCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "audit.jsonl")
	rt, closeKernel := boot(t, auditlog.Config{Path: path, MaxBytes: 1 << 20, MaxFiles: 2, MaxArgBytes: 64})
	sess := tools.NewSession("s1")
	ctx := context.Background()
	rt.Execute(ctx, tools.Call{CallID: "c1", Name: "echo", Args: json.RawMessage(`{"x":1}`), Session: sess})
	rt.Execute(ctx, tools.Call{CallID: "c2", Name: "boom", Args: json.RawMessage(`{}`)})
	rt.Execute(ctx, tools.Call{CallID: "c3", Name: "echo", Args: json.RawMessage(`{"big":"` + strings.Repeat("a", 100) + `"}`)})
	closeKernel() // drains the async listener, then closes the file

	recs := readRecords(t, path)
	require.Len(t, recs, 3)
	tests := []struct {
		callID, tool, session string
		isError               bool
		code                  any
		args                  string
	}{
		{"c1", "echo", "s1", false, nil, `{"x":1}`},
		{"c2", "boom", "", true, "TEST_BOOM", `{}`},
		{"c3", "echo", "", false, nil, `{"bytes":110,"truncated":true}`},
	}
	for i, tt := range tests {
		r := recs[i]
		assert.Equal(t, tt.callID, r["callId"])
		assert.Equal(t, tt.tool, r["tool"])
		if tt.session == "" {
			assert.Nil(t, r["session"])
		} else {
			assert.Equal(t, tt.session, r["session"])
		}
		assert.Equal(t, tt.isError, r["isError"])
		assert.Equal(t, tt.code, r["code"])
		args, err := json.Marshal(r["args"])
		require.NoError(t, err)
		assert.JSONEq(t, tt.args, string(args))
		assert.NotEmpty(t, r["time"])
	}
}

func TestAuditLogRotatesBySize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	// Each line is about 120 bytes: a 300-byte limit holds two lines per file.
	rt, closeKernel := boot(t, auditlog.Config{Path: path, MaxBytes: 300, MaxFiles: 2, MaxArgBytes: 4096})
	for range 10 {
		rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "echo", Args: json.RawMessage(`{}`)})
	}
	closeKernel()

	total := 0
	for _, p := range []string{path, path + ".1", path + ".2"} {
		st, err := os.Stat(p)
		require.NoError(t, err, p)
		assert.LessOrEqual(t, st.Size(), int64(300), p)
		total += len(readRecords(t, p))
	}
	assert.Equal(t, 6, total, "three files of two lines are kept; older lines were dropped")
	_, err := os.Stat(path + ".3")
	assert.True(t, errors.Is(err, os.ErrNotExist), "maxFiles bounds the rotated files")
}

func TestAuditLogConfig(t *testing.T) {
	var def auditlog.Config
	def.Defaults()
	assert.Equal(t, int64(auditlog.DefaultMaxBytes), def.MaxBytes)
	assert.Equal(t, "audit.jsonl", filepath.Base(def.Path))
	require.NoError(t, def.Validate())

	tests := []struct {
		name string
		mut  func(*auditlog.Config)
		msg  string
	}{
		{"empty path", func(c *auditlog.Config) { c.Path = "" }, "audit-log: path must be a non-empty string"},
		{"zero maxBytes", func(c *auditlog.Config) { c.MaxBytes = 0 }, "audit-log: maxBytes must be a positive integer"},
		{"zero maxFiles", func(c *auditlog.Config) { c.MaxFiles = 0 }, "audit-log: maxFiles must be a positive integer"},
		{"negative maxArgBytes", func(c *auditlog.Config) { c.MaxArgBytes = -1 }, "audit-log: maxArgBytes must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := def
			tt.mut(&c)
			assert.EqualError(t, c.Validate(), tt.msg)
		})
	}
}
