package filetool

import (
	"context"
	"fmt"
	"strings"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// The result budget is the most bytes of text one tool result may hand the model, counted on the
// final text (envelope, numbers, lines, footer), chosen per MCP client (docs/host.md "What each
// client shows the model"). A byte count bounds the UTF-16 units and the code points of the same
// text, so a budget in bytes is safe whatever a client counts.

// DefaultBudget is the budget of a client that is not known to take more: it passes every measured
// client whole (the smallest limit is Gemini CLI's 40,000 characters, wrapper included).
const DefaultBudget = 36000

// ClaudeCodeBudget is the budget of Claude Code (clientInfo "claude-code"), which inlines results up to
// about 50,000 characters.
const ClaudeCodeBudget = 48000

// KnownBudgets returns the built-in budgets of the clients known to take more than
// DefaultBudget, by clientInfo name (a new map each call), in the integer type of the caller's
// configuration:
//
//	cfg.ResultBudgetByClient = filetool.KnownBudgets[int64]()
func KnownBudgets[N ~int64]() map[string]N { return map[string]N{"claude-code": ClaudeCodeBudget} }

// Budget resolves the result budget of a call from its client's name. The zero Budget gives
// every client DefaultBudget.
type Budget struct {
	def      int
	byClient map[string]int
}

// NewBudget returns the budget of def for any client and byClient for the clients it names, in
// whatever whole-number type the plugin's configuration decodes (int64, or a named type over it).
// It checks what the configuration gives it: plugin names the plugin in the messages
// (`<plugin>: resultBudget must be a positive integer`, `<plugin>: resultBudgetByClient["<name>"]
// must be a positive integer`, `<plugin>: resultBudgetByClient keys must be non-empty client names`).
//
//	budget, err := filetool.NewBudget("word-count", cfg.ResultBudget, cfg.ResultBudgetByClient)
func NewBudget[N ~int64](plugin string, def N, byClient map[string]N) (Budget, error) {
	if def < 1 {
		return Budget{}, fmt.Errorf("%s: resultBudget must be a positive integer", plugin)
	}
	t := Budget{def: clamp(int64(def)), byClient: make(map[string]int, len(byClient))}
	for name, n := range byClient {
		if name == "" {
			return Budget{}, fmt.Errorf("%s: resultBudgetByClient keys must be non-empty client names", plugin)
		}
		if n < 1 {
			return Budget{}, fmt.Errorf("%s: resultBudgetByClient[%q] must be a positive integer", plugin, name)
		}
		t.byClient[name] = clamp(int64(n))
	}
	return t, nil
}

// clamp converts n to an int, saturating.
func clamp(n int64) int { return int(min(n, int64(maxInt))) }

const maxInt = int(^uint(0) >> 1)

// For returns the budget of a client by its clientInfo name ("" when unknown).
func (t Budget) For(client string) int {
	if n, ok := t.byClient[client]; ok {
		return n
	}
	if t.def < 1 {
		return DefaultBudget
	}
	return t.def
}

// errorPrefix is what the tools runtime puts before an error's message.
const errorPrefix = "Error: "

// FitError returns err when "Error: " and its message fit max bytes. Otherwise it returns an error
// with the same chain (errors.Is and errors.As see err) whose message keeps the first line whole,
// whatever its length, and then as many of the following lines as fit, whole.
func FitError(err error, max int) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if len(errorPrefix)+len(msg) <= max {
		return err
	}
	return &cutError{err: err, msg: CutLines(msg, max-len(errorPrefix))}
}

// CutLines returns the first line of s and as many of the following lines as fit max bytes in
// all, whole; the first line is kept even when it alone is longer.
func CutLines(s string, max int) string {
	if len(s) <= max {
		return s
	}
	end := strings.IndexByte(s, '\n')
	if end < 0 {
		return s
	}
	for {
		next := strings.IndexByte(s[end+1:], '\n')
		stop := len(s)
		if next >= 0 {
			stop = end + 1 + next
		}
		if stop > max {
			return s[:end]
		}
		if next < 0 {
			return s
		}
		end = stop
	}
}

// cutError is an error whose message was cut to the budget; it unwraps to the original.
type cutError struct {
	err error
	msg string
}

func (e *cutError) Error() string { return e.msg }
func (e *cutError) Unwrap() error { return e.err }

// Of returns the budget of a call: its session's client's (tools.Header.Client). A tool whose
// success text may be long cuts it to this (CutLines); BudgetErrors does so for failures.
func (t Budget) Of(exec *tools.Exec) int { return t.For(exec.Header().Client) }

// BudgetErrors wraps a tool body so that its failures fit the call's budget (FitError): it is
// what a tool's Execute is set to.
//
//	Execute: filetool.BudgetErrors(s.budget, s.wordCount),
func BudgetErrors[In, Out any](t Budget, body func(context.Context, In, *tools.Exec) (Out, error)) func(context.Context, In, *tools.Exec) (Out, error) {
	return func(ctx context.Context, in In, exec *tools.Exec) (Out, error) {
		out, err := body(ctx, in, exec)
		if err != nil {
			return out, FitError(err, t.Of(exec))
		}
		return out, nil
	}
}
