package tools

import (
	"context"
	"slices"

	"github.com/cordon-dev/cordon/kernel"
)

// Instruction is one plugin's standing-policy statement for an agent session: the text a host that
// has no per-request context (MCP) puts into its server instructions, after the tools' guidance,
// ordered by Order (ties keep the listeners' order). An empty Text is left out.
type Instruction struct {
	Name  string // the statement's name, e.g. "sandbox:policy"
	Order int
	Text  string
}

// Instructions collects the standing-policy statements for a session: each listener calls next and
// appends its own. Hosts read them with InstructionsFor. Mode: waterfall.
var Instructions = kernel.NewWaterfall[*Session, []Instruction]("tools/instructions")

// ContributeInstruction registers, as an effect of kc, a listener of Instructions that appends the
// statement text(session) under name and order.
func ContributeInstruction(kc *kernel.Context, name string, order int, text func(*Session) string) (kernel.Disposer, error) {
	return Instructions.On(kc, func(_ context.Context, s *Session, next func() ([]Instruction, error)) ([]Instruction, error) {
		out, err := next()
		return append(out, Instruction{Name: name, Order: order, Text: text(s)}), err
	})
}

// InstructionsFor returns the non-empty texts of the statements contributed for session s, in
// order. A listener's error leaves the statements collected so far.
func InstructionsFor(ctx context.Context, kc *kernel.Context, s *Session) []string {
	all, _ := Instructions.Run(ctx, kc, s, nil)
	slices.SortStableFunc(all, func(a, b Instruction) int { return a.Order - b.Order })
	out := make([]string, 0, len(all))
	for _, in := range all {
		if in.Text != "" {
			out = append(out, in.Text)
		}
	}
	return out
}
