package history

import (
	"context"
	"crypto/rand"
	"encoding/hex"
)

// Actor is who makes the changes of a context: the session, the tool and the session's cwd, and
// the group its changes share (one per tool call: NewGroup).
type Actor struct {
	Session string
	Tool    string
	Cwd     string
	Group   string
}

// NewGroup returns a fresh change-group id, "g" and 16 hex digits.
func NewGroup() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "g" + hex.EncodeToString(b[:])
}

type actorKey struct{}

type undoingKey struct{}

// WithActor returns ctx carrying a.
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorOf returns the actor ctx carries (the zero Actor when none).
func ActorOf(ctx context.Context) Actor {
	a, _ := ctx.Value(actorKey{}).(Actor)
	return a
}

// withUndoing marks the mutations of ctx as the undo of change id.
func withUndoing(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, undoingKey{}, id)
}

// UndoingOf returns the change the mutations of ctx undo ("" when none).
func UndoingOf(ctx context.Context) string {
	id, _ := ctx.Value(undoingKey{}).(string)
	return id
}
