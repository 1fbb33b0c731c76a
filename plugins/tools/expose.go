package tools

import (
	"fmt"
	"path"
	"slices"
)

// ExposeRule is one entry of Config.Expose: which tools a session sees when its model and client
// match (docs/tools.md "Exposure"). Model and Client are path.Match patterns against
// Header.Model and Header.Client; an empty pattern matches anything. Tools, when set, lists the
// only tools the session sees; Hide lists tools it does not see.
type ExposeRule struct {
	Model  string   `json:"model,omitempty" yaml:"model"`
	Client string   `json:"client,omitempty" yaml:"client"`
	Tools  []string `json:"tools,omitempty" yaml:"tools"`
	Hide   []string `json:"hide,omitempty" yaml:"hide"`
}

// matches reports whether the rule applies to a session with header h.
func (e ExposeRule) matches(h Header) bool {
	return glob(e.Model, h.Model) && glob(e.Client, h.Client)
}

func glob(pattern, s string) bool {
	if pattern == "" {
		return true
	}
	ok, _ := path.Match(pattern, s) // patterns are checked by validateExpose
	return ok
}

// shows reports whether the rule lets the session see tool name.
func (e ExposeRule) shows(name string) bool {
	if e.Tools != nil && !slices.Contains(e.Tools, name) {
		return false
	}
	return !slices.Contains(e.Hide, name)
}

// validateExpose checks every pattern of rules.
func validateExpose(rules []ExposeRule) error {
	for i, e := range rules {
		for key, p := range map[string]string{"model": e.Model, "client": e.Client} {
			if _, err := path.Match(p, ""); err != nil {
				return fmt.Errorf("tools: expose[%d].%s: bad pattern %q", i, key, p)
			}
		}
	}
	return nil
}

// Exposed reports whether a session with header h sees tool name: the first rule of
// Config.Expose that matches h decides; with none, every tool is exposed. A call to a tool the
// session does not see fails as an unknown tool.
func (r *Runtime) Exposed(h Header, name string) bool {
	for _, e := range r.expose {
		if e.matches(h) {
			return e.shows(name)
		}
	}
	return true
}

// ListFor returns the definitions a session with header h sees, in registration order (what a
// host lists to that session).
func (r *Runtime) ListFor(h Header) []Definition {
	return slices.DeleteFunc(r.List(), func(d Definition) bool { return !r.Exposed(h, d.Name) })
}
