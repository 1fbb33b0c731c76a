package tools_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
)

func TestSessionHeader(t *testing.T) {
	s := tools.NewSession("s1")
	require.Equal(t, "s1", s.ID())
	require.Equal(t, tools.Header{}, s.Header())
	s.SetHeader(tools.Header{Cwd: "/p", Model: "m"})
	s.UpdateHeader(func(h *tools.Header) { h.Cwd = "/q" })
	require.Equal(t, tools.Header{Cwd: "/q", Model: "m"}, s.Header())

	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.UpdateHeader(func(h *tools.Header) { h.Model = "x" })
			_ = s.Header()
		}()
	}
	wg.Wait()
}

// owner is the narrow interface a policy keys its state by.
type owner interface{ SessionKey() any }

func TestExecSessionKey(t *testing.T) {
	s := tools.NewSession("s1")
	var withSession owner = &tools.Exec{Session: s}
	require.Same(t, s, withSession.SessionKey())
	var without owner = &tools.Exec{}
	require.True(t, without.SessionKey() == nil, "an exec without a session yields an untyped nil")
	require.Equal(t, tools.Header{}, (&tools.Exec{}).Header())
}

func TestBodySeesTheCallSession(t *testing.T) {
	e := newEnv(t)
	s := tools.NewSession("s1")
	s.SetHeader(tools.Header{Cwd: "/work"})
	var cwd string
	e.load(t, tool("t", func(_ context.Context, _ json.RawMessage, x *tools.Exec) (any, error) {
		cwd = x.Header().Cwd
		return "ok", nil
	}))
	res := e.rt.Execute(context.Background(), tools.Call{CallID: "c", Name: "t", Args: json.RawMessage(`{}`), Session: s})
	require.False(t, res.IsError)
	require.Equal(t, "/work", cwd)
}

func TestEndSessionEmitsSessionEnded(t *testing.T) {
	e := newEnv(t)
	s := tools.NewSession("s1")
	var ended []*tools.Session
	_, err := tools.SessionEnded.On(e.root, func(_ context.Context, got *tools.Session) error {
		ended = append(ended, got)
		return nil
	})
	require.NoError(t, err)
	_, err = tools.SessionEnded.On(e.root, func(context.Context, *tools.Session) error { panic("contained") })
	require.NoError(t, err)
	e.rt.EndSession(context.Background(), s)
	e.rt.EndSession(context.Background(), nil)
	require.Equal(t, []*tools.Session{s}, ended)
}
