package appendfile

import (
	"context"
	"encoding/json"
	"strconv"

	"go.uber.org/fx"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kernelfx"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// ID is the catalog name of the plugin.
const ID = "append-file"

// Config is the plugin configuration (see the package documentation).
type Config struct {
	ResultBudget         int64            `yaml:"resultBudget"`
	ResultBudgetByClient map[string]int64 `yaml:"resultBudgetByClient"`
}

// Defaults fills the default values before the YAML is decoded over them.
func (c *Config) Defaults() {
	c.ResultBudget = filetool.DefaultBudget
	c.ResultBudgetByClient = filetool.KnownBudgets[int64]()
}

// Validate checks the decoded configuration: `append-file: resultBudget must be a positive
// integer` and its kin (filetool.NewBudget).
func (c Config) Validate() error {
	_, err := filetool.NewBudget(ID, c.ResultBudget, c.ResultBudgetByClient)
	return err
}

// Plugin is the "append-file" module. It stays pending until both the fs and the tools services
// exist, then registers append; disposing it removes the tool.
var Plugin = kernel.Define[Config](ID, apply, fs.Service.Dep(), tools.Service.Dep())

// Module is how a host includes the plugin (app.WithModules(appendfile.Module)).
var Module = fx.Module(ID, kernelfx.Plugin(Plugin))

// snippet: docs/filetool.md appendfile-load
// suite is one loaded instance: the kit's Env (filesystem, sandbox hook, observation) and the
// result budget.
type suite struct {
	env    *filetool.Env
	budget filetool.Budget
}

func apply(kc *kernel.Context, cfg Config) error {
	env, err := filetool.NewEnv(kc) // fails the load under a confining fs without a sandbox policy
	if err != nil {
		return err
	}
	budget, err := filetool.NewBudget(ID, cfg.ResultBudget, cfg.ResultBudgetByClient)
	if err != nil {
		return err
	}
	s := &suite{env: env, budget: budget}
	_, err = tools.Service.Must(kc).Register(kc, tools.Tool[Args, Value]{
		Name:        "append",
		Description: "Appends text to the end of a file, creating it when it does not exist. A file that exists must have been read first.",
		// Under a confining filesystem: sandbox_permissions and justification are added.
		Parameters: env.Sandbox.Parameters(parameters),
		Execute:    filetool.BudgetErrors(s.budget, s.append),
		Render: func(_ Args, v Value) []tools.Content {
			return []tools.Content{tools.TextContent("Appended " + strconv.Itoa(v.Bytes) + " bytes to " + v.Path)}
		},
		PresentationMeta: func(a Args, v Value) any {
			if v.After == nil {
				return filetool.DiffMeta{Diffs: []filetool.FileDiff{}}
			}
			before := ""
			if v.Before != nil {
				before = *v.Before
			}
			return filetool.DiffMeta{Diffs: filetool.ComputeHunkDiffs(a.FilePath, before, *v.After)}
		},
		Annotations: tools.Annotations{Destructive: true},
	}.Definition())
	return err
}

// end snippet

// parameters is the schema of append's arguments. Sandbox.Parameters appends the escalation
// properties where the properties object is followed by "required", so the text is compact.
var parameters = json.RawMessage(`{"type":"object","properties":{` +
	`"file_path":{"type":"string","description":"The file to append to (relative paths resolve against the working directory)."},` +
	`"content":{"type":"string","description":"The text to append, as it should appear (add the newline yourself)."}` +
	`},"required":["file_path","content"]}`)

// Args are append's arguments. The runtime decodes the top-level keys into the fields by their
// json names (embedded structs are not filled), so the escalation arguments are fields of their own.
type Args struct {
	FilePath      string          `json:"file_path"`
	Content       string          `json:"content"`
	Permissions   json.RawMessage `json:"sandbox_permissions"`
	Justification json.RawMessage `json:"justification"`
}

// Value is append's result: the file's display path, the bytes appended, and the file's text
// before (nil when it was created) and after, LF-normalized, for the diff meta.
type Value struct {
	Path   string  `json:"path"`
	Bytes  int     `json:"bytes"`
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// snippet: docs/filetool.md appendfile-body
// append is the body of the tool: the guarded mutation of the file-tool kit, in the stock order.
func (s *suite) append(ctx context.Context, a Args, exec *tools.Exec) (Value, error) {
	if a.FilePath == "" {
		return Value{}, fs.BlankPath()
	}
	// 1. The call's sandbox policy, before anything executes (an escalation asks the user here).
	esc := filetool.Escalation{Permissions: a.Permissions, Justification: a.Justification}
	action := filetool.Action{FilePath: a.FilePath, Previews: []tools.ApprovalPreview{{Label: "Appended text", Text: a.Content}}}
	policy, err := s.env.Sandbox.ResolvePolicy(ctx, "append", esc, exec, action)
	if err != nil {
		return Value{}, err
	}
	// 2. The target, resolved against the session's cwd (or the policy's workspace root).
	target, err := s.env.FS.Resolve(ctx, a.FilePath, fs.ResolveOptions{Cwd: filetool.MutationBase(policy, exec, a.FilePath)})
	if err != nil {
		return Value{}, err
	}
	// 3. The read gate: the observation policy's intent (replace the version the model read;
	// create when it read none), nil when no policy is composed.
	intent, err := fs.WriteIntentEvent.Run(ctx, s.env.KC, fs.IntentArgs{Target: target, Actor: exec}, filetool.NoWriteIntent)
	if err != nil {
		return Value{}, s.env.MutationFailure(ctx, fs.VerbWrite, target, policy, exec, err)
	}
	before := ""
	if intent == nil || intent.Kind == fs.IntentReplaceIfVersion {
		read, err := s.env.FS.ReadText(ctx, target)
		switch {
		case err == nil:
			before = read.Text
		case intent != nil || !fs.HasCode(err, fs.CodeNotFound):
			return Value{}, filetool.WithCharsetGuidance(err)
		}
	}
	// 4. The mutation, under the policy; a failure gets the model-facing remedies.
	out, err := s.env.FS.WriteText(sandbox.WithPolicy(ctx, policy), target, before+a.Content, intent)
	if err != nil {
		return Value{}, s.env.MutationFailure(ctx, fs.VerbWrite, target, policy, exec, err)
	}
	// 5. The observation: the model knows the file at its new version, so appends may follow.
	if err := s.env.Observe(ctx, target, fs.Present(out.Version), exec); err != nil {
		return Value{}, err
	}
	return Value{Path: target.DisplayPath, Bytes: len(a.Content), Before: out.Before, After: &out.After}, nil
}

// end snippet
