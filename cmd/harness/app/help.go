package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// command is one command of the command line: its arguments, its one-line summary, what it does,
// its examples (one "command  # comment" per line) and what runs it.
type command struct {
	name, args, summary, about string
	examples                   []string
	run                        func(context.Context, *env) error
}

// commandList is the commands in help order (set in init: the run functions refer back to it).
var commandList []command

func init() {
	commandList = []command{
		{name: "serve", summary: "serve the composed tools over MCP on stdio (or HTTP with --http)",
			about: "Serves the composed tools over MCP. On stdio one process is one connection and one agent session: " +
				"an MCP client (Claude Code, Codex, ...) starts it and speaks JSON-RPC on its stdin and stdout, so run " +
				"in a terminal it waits for that input. 'harness setup CLIENT' writes a client's configuration. With " +
				"--http it serves MCP Streamable HTTP at ADDR/mcp for several clients at once.",
			examples: []string{
				"harness serve                                  # stdio, the workspace is the current directory",
				"harness serve --cwd ~/src/app --root ~/src/lib # two read-write roots",
				"harness serve --http 127.0.0.1:8931            # Streamable HTTP on loopback",
				"harness serve --http :8931 --token-file tokens # off loopback a token file is required",
			}, run: cmdServe},
		{name: "run", summary: "execute JSON-line tool calls from stdin, one result line per input line",
			about: "Reads one JSON object per line on stdin ({\"id\":1,\"tool\":\"read\",\"args\":{...}}) and writes one " +
				"result line per input line on stdout, in order; see docs/host.md for the fields.",
			examples: []string{
				`echo '{"id":1,"tool":"read","args":{"file_path":"README.md"}}' | harness run`,
				"harness run --cwd /my/proj --approve reject < calls.jsonl",
			}, run: cmdRun},
		{name: "tools", summary: "print the tool definitions as JSON, as tools/list sends them",
			about:    "Composes, then prints the tool definitions exactly as tools/list would send them, in registration order.",
			examples: []string{"harness tools", "harness tools --profile unconfined --structured-content"}, run: cmdTools},
		{name: "plugins", summary: "print the plugin catalog",
			about:    "Prints the catalog, one module per line with the services it waits for.",
			examples: []string{"harness plugins"}, run: cmdPlugins},
		{name: "config", summary: "print the composed plugin tree with each entry's state",
			about:    "Composes (a bad composition fails here as at start), then prints the source and the tree as YAML, each entry's state as a comment.",
			examples: []string{"harness config", "harness config --config cordon.yaml"}, run: cmdConfig},
		{name: "history", summary: "list the changes fs-history recorded under --cwd, newest first",
			about:    "Lists the changes the fs-history plugin recorded to files under --cwd, newest first: change id, time, session, tool and path.",
			examples: []string{"harness history", "harness history --cwd /my/proj --json"}, run: cmdHistory},
		{name: "undo", args: "PATH|CHANGE_ID", summary: "restore a file to its state before a change",
			about: "Restores the file of PATH (its newest change) or of CHANGE_ID (a change id from 'harness history') to its " +
				"state before that change, under the version check. --session ID or --any-session says whose change " +
				"to take back; --force restores over changes made since.",
			examples: []string{
				"harness undo --session mcp-stdio-0123456789abcdef src/main.go",
				"harness undo --any-session 42",
				"harness undo --any-session --force notes.txt",
			}, run: cmdUndo},
		{name: "setup", args: "CLIENT", summary: "print or write a client's configuration for this harness",
			about: "Prints the configuration that makes CLIENT (" + strings.Join(clientNames(), ", ") + ") start this binary " +
				"as the MCP server \"cordon\" over stdio, in the client's own format; with --write merges it into the client's " +
				"config file (other entries kept, a backup beside it, nothing written when already set).",
			examples: []string{
				"harness setup claude-code                          # print .mcp.json's entry",
				"harness setup claude-code --write --scope user     # into ~/.claude.json",
				"harness setup codex --write                        # into ~/.codex/config.toml",
				"harness setup gemini --write --disable-builtin-tools",
				"harness setup vscode --http http://127.0.0.1:8931/mcp --token-file tokens",
			}},
		{name: "version", summary: "print the version",
			about:    "Prints the version this binary was built with (the release's stamped version, else the module version the build recorded, else dev).",
			examples: []string{"harness version", "harness --version"}, run: cmdVersion},
		{name: "help", args: "[COMMAND]", summary: "print the help of the harness or of COMMAND",
			examples: []string{"harness help serve", "harness serve --help"}},
	}
}

// lookupCommand returns the command named name.
func lookupCommand(name string) (*command, bool) {
	for i := range commandList {
		if commandList[i].name == name {
			return &commandList[i], true
		}
	}
	return nil, false
}

// usage prints the help of the whole command line.
func usage(w io.Writer, name string) {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s COMMAND [flags] [arguments]\n\n"+
		"Cordon's file tools (read, write, edit, glob, grep, ...) for a model, over MCP or JSON lines.\n\ncommands:\n", name)
	for _, c := range commandList {
		fmt.Fprintf(&b, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(&b, "\nexamples:\n"+
		"  %[1]s setup claude-code --write   # make Claude Code start the harness in this project\n"+
		"  %[1]s serve                       # what the client runs: MCP on stdio\n"+
		"  %[1]s help serve                  # a command's flags and examples\n"+
		"\n--version prints the version. Run '%[1]s help COMMAND' for a command's flags (docs/host.md).\n", name)
	_, _ = io.WriteString(w, b.String())
}

// commandHelp prints the help of command c: synopsis, description, examples and its flags.
func commandHelp(w io.Writer, name string, c *command) {
	var b strings.Builder
	fs := commandFlags(c.name)
	synopsis := name + " " + c.name
	if fs != nil {
		synopsis += " [flags]"
	}
	if c.args != "" {
		synopsis += " " + c.args
	}
	fmt.Fprintf(&b, "usage: %s\n\n", synopsis)
	about := c.about
	if about == "" {
		about = strings.ToUpper(c.summary[:1]) + c.summary[1:] + "."
	}
	wrap(&b, about, "", 100)
	b.WriteString("\nexamples:\n")
	for _, e := range c.examples {
		fmt.Fprintf(&b, "  %s\n", strings.ReplaceAll(e, "harness ", name+" "))
	}
	if fs != nil {
		b.WriteString("\nflags:\n")
		fs.VisitAll(func(f *flag.Flag) {
			word, text := flag.UnquoteUsage(f)
			if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); isBool {
				word = ""
			}
			fmt.Fprintf(&b, "  --%s", f.Name)
			if word != "" {
				fmt.Fprintf(&b, " %s", word)
			}
			b.WriteString("\n")
			if d := shownDefault(f); d != "" {
				text += " (default " + d + ")"
			}
			wrap(&b, text, "        ", 100)
		})
	}
	_, _ = io.WriteString(w, b.String())
}

// commandFlags returns the flag set of command cmd (nil for a command without flags).
func commandFlags(cmd string) *flag.FlagSet {
	switch cmd {
	case "setup":
		return setupFlagSet(&setupFlags{})
	case "version", "help":
		return nil
	}
	return newFlagSet(cmd, &flags{}, &rawFlags{})
}

// shownDefault is a flag's default as the help shows it: none for an empty, zero or false value
// (the text says it), durations without trailing zero units (30m, not 30m0s).
func shownDefault(f *flag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "[]":
		return ""
	}
	if d, err := time.ParseDuration(f.DefValue); err == nil && strings.HasSuffix(f.DefValue, "s") {
		s := d.String()
		if strings.HasSuffix(s, "m0s") {
			s = strings.TrimSuffix(s, "0s")
		}
		if strings.HasSuffix(s, "h0m") {
			s = strings.TrimSuffix(s, "0m")
		}
		return s
	}
	if strings.Contains(f.Usage, "(default") {
		return ""
	}
	return f.DefValue
}

// wrap writes text as lines of at most width columns, each starting with indent.
func wrap(b *strings.Builder, text, indent string, width int) {
	line := indent
	for _, word := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(word) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += word
	}
	b.WriteString(line + "\n")
}

// cmdVersion prints the version.
func cmdVersion(_ context.Context, e *env) error {
	_, err := fmt.Fprintf(e.o.stdout, "%s %s\n", e.o.name, e.o.version)
	return err
}
