// Package budget is the result budget: the most bytes of text one tool result may hand the model,
// counted on the final text (envelope, numbers, lines, footer), chosen per MCP client
// (docs/host.md "What each client shows the model"). A byte count bounds the UTF-16 units and the
// code points of the same text, so a budget in bytes is safe whatever a client counts.
package budget

import (
	"fmt"
	"strings"

	"github.com/cordon-dev/cordon/internal/confint"
)

// Default is the budget of a client that is not known to take more: it passes every measured
// client whole (the smallest limit is Gemini CLI's 40,000 characters, wrapper included).
const Default = 36000

// ClaudeCode is the budget of Claude Code (clientInfo "claude-code"), which inlines results up to
// about 50,000 characters.
const ClaudeCode = 48000

// Known returns the built-in budgets of the clients known to take more than Default, by
// clientInfo name (a new map each call).
func Known() map[string]confint.Int { return map[string]confint.Int{"claude-code": ClaudeCode} }

// Table resolves the budget of a call from its client's name.
type Table struct {
	def      int
	byClient map[string]int
}

// NewTable returns the table of def for any client and byClient for the clients it names. It
// checks what a plugin's configuration gives it: plugin names the plugin in the messages
// (`<plugin>: resultBudget must be a positive integer`, `<plugin>: resultBudgetByClient["<name>"]
// must be a positive integer`, `<plugin>: resultBudgetByClient keys must be non-empty client names`).
func NewTable(plugin string, def confint.Int, byClient map[string]confint.Int) (Table, error) {
	if def < 1 {
		return Table{}, fmt.Errorf("%s: resultBudget must be a positive integer", plugin)
	}
	t := Table{def: clamp(def), byClient: make(map[string]int, len(byClient))}
	for name, n := range byClient {
		if name == "" {
			return Table{}, fmt.Errorf("%s: resultBudgetByClient keys must be non-empty client names", plugin)
		}
		if n < 1 {
			return Table{}, fmt.Errorf("%s: resultBudgetByClient[%q] must be a positive integer", plugin, name)
		}
		t.byClient[name] = clamp(n)
	}
	return t, nil
}

// clamp converts n to an int, saturating.
func clamp(n confint.Int) int { return int(min(n, confint.Int(maxInt))) }

const maxInt = int(^uint(0) >> 1)

// For returns the budget of a client by its clientInfo name ("" when unknown).
func (t Table) For(client string) int {
	if n, ok := t.byClient[client]; ok {
		return n
	}
	if t.def < 1 {
		return Default
	}
	return t.def
}

// errorPrefix is what the tools runtime puts before an error's message.
const errorPrefix = "Error: "

// Error returns err when "Error: " and its message fit max bytes. Otherwise it returns an error
// with the same chain (errors.Is and errors.As see err) whose message keeps the first line whole,
// whatever its length, and then as many of the following lines as fit, whole.
func Error(err error, max int) error {
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

// EchoBytes is the most bytes of one model-chosen string (a line of a patch, a path) a message
// repeats back (docs/apply_patch.md "Errors").
const EchoBytes = 200

// Echo is s when it has at most max bytes; otherwise its first bytes (cut at a character
// boundary) and a marker saying how many bytes were cut: `[cut: <n> more bytes]`.
func Echo(s string, max int) string {
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + fmt.Sprintf("[cut: %d more bytes]", len(s)-i)
}
