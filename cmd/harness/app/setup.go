package app

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// setupFlags are the flags of harness setup (docs/host.md "harness setup").
type setupFlags struct {
	write, builtinOff bool
	scope             string
	httpURL           string
	tokenFile         string
}

func setupFlagSet(sf *setupFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&sf.write, "write", false, "merge the configuration into the client's config file (other entries kept, "+
		"a backup FILE.cordon-backup beside it; nothing written when it is already set)")
	fs.StringVar(&sf.scope, "scope", "", "the `SCOPE`: project (the current directory's project files) or user (the "+
		"user's config files); default project, user for codex (which has only a user file)")
	fs.StringVar(&sf.httpURL, "http", "", "configure a `URL` of a running harness serve --http instead of stdio "+
		"(http://127.0.0.1:8931/mcp)")
	fs.StringVar(&sf.tokenFile, "token-file", "", "with --http: `FILE` whose first name:token line (or whole text) is "+
		"the bearer token the client sends (it is written into the client's config)")
	fs.BoolVar(&sf.builtinOff, "disable-builtin-tools", false, "also write the client's own setting that turns off its "+
		"built-in file tools, so its model uses Cordon's (Claude Code, opencode, Gemini CLI; "+
		"Codex, VS Code and Cursor have none)")
	return fs
}

// server is what a client is told to run or reach.
type server struct {
	command string   // absolute path of this binary (stdio)
	args    []string // serve and its flags (stdio)
	url     string   // --http
	token   string   // --token-file's token ("" without)
}

// setting is one value a client's config file gets at a path of object keys; list settings are
// merged as a set (values added, none removed).
type setting struct {
	path  []string
	value any
	list  bool
}

// clientFile is one config file and the settings it gets.
type clientFile struct {
	path     string
	format   string // "json" or "toml"
	settings []setting
}

// clientSpec describes one client: its config files by scope.
type clientSpec struct {
	name, label string
	scopes      []string // the first is the default
	files       func(scope, home, cwd string, s server, builtinOff bool) ([]clientFile, error)
	noBuiltin   string                    // why --disable-builtin-tools changes nothing, when it does not
	note        func(scope string) string // what else the user must do after --write ("" nothing)
}

func clientNames() []string {
	names := make([]string, len(clients))
	for i, c := range clients {
		names[i] = c.name
	}
	return names
}

func lookupClient(name string) (*clientSpec, bool) {
	for i := range clients {
		if clients[i].name == name {
			return &clients[i], true
		}
	}
	return nil, false
}

// withHeaders adds "headers" with the bearer token to m when s has a token.
func (s server) withHeaders(m obj) obj {
	if s.token == "" {
		return m
	}
	return append(m, field{"headers", obj{{"Authorization", "Bearer " + s.token}}})
}

// obj is a JSON object written with its keys in order (the order the clients' docs show).
type obj []field

type field struct {
	k string
	v any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshalJSON(f.k)
		if err != nil {
			return nil, err
		}
		v, err := marshalJSON(f.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func strs(ss ...string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// claudeDeny are Claude Code's built-in file tools: a deny rule without a specifier removes the tool.
var claudeDeny = strs("Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep")

// geminiExclude are Gemini CLI's built-in file tools, by tool name; glob by its class name
// (GlobTool), since Gemini CLI also matches an MCP tool's unprefixed name against the list, and
// "glob" would exclude Cordon's glob too.
var geminiExclude = strs("read_file", "read_many_files", "write_file", "replace", "GlobTool", "grep_search")

// opencodeDeny are opencode's permissions for its file tools: a "deny" for a whole permission
// removes the tools it covers (edit covers edit, write and apply_patch); MCP tools are named
// cordon_<tool> and keep their own.
var opencodeDeny = []setting{
	{path: []string{"permission", "read"}, value: "deny"},
	{path: []string{"permission", "edit"}, value: "deny"},
	{path: []string{"permission", "glob"}, value: "deny"},
	{path: []string{"permission", "grep"}, value: "deny"},
	{path: []string{"permission", "list"}, value: "deny"},
}

var clients = []clientSpec{
	{name: "claude-code", label: "Claude Code", scopes: []string{"project", "user"},
		note: func(scope string) string {
			if scope != "project" {
				return ""
			}
			return "Claude Code starts a project's servers once you trust the folder: the first claude run here asks"
		},
		files: func(scope, home, cwd string, s server, off bool) ([]clientFile, error) {
			entry := obj{{"type", "stdio"}, {"command", s.command}, {"args", strs(s.args...)}}
			if s.url != "" {
				entry = s.withHeaders(obj{{"type", "http"}, {"url", s.url}})
			}
			servers, settings := filepath.Join(cwd, ".mcp.json"), filepath.Join(cwd, ".claude", "settings.json")
			if scope == "user" {
				servers, settings = filepath.Join(home, ".claude.json"), filepath.Join(home, ".claude", "settings.json")
			}
			files := []clientFile{{path: servers, format: "json", settings: []setting{{path: []string{"mcpServers", "cordon"}, value: entry}}}}
			if scope == "project" {
				// A server of .mcp.json waits for the user's approval; running setup is that
				// approval, recorded in the user's own, unshared project settings.
				files = append(files, clientFile{path: filepath.Join(cwd, ".claude", "settings.local.json"), format: "json",
					settings: []setting{{path: []string{"enabledMcpjsonServers"}, value: strs("cordon"), list: true}}})
			}
			if off {
				files = append(files, clientFile{path: settings, format: "json",
					settings: []setting{{path: []string{"permissions", "deny"}, value: claudeDeny, list: true}}})
			}
			return files, nil
		}},
	{name: "codex", label: "Codex CLI", scopes: []string{"user"},
		noBuiltin: "Codex CLI has no setting that turns off its own file tools (it edits through its shell and apply_patch)",
		files: func(_, home, _ string, s server, _ bool) ([]clientFile, error) {
			dir := os.Getenv("CODEX_HOME")
			if dir == "" {
				dir = filepath.Join(home, ".codex")
			}
			var entry []tomlKey
			if s.url != "" {
				entry = []tomlKey{{"url", s.url}}
				if s.token != "" {
					entry = append(entry, tomlKey{"http_headers", map[string]string{"Authorization": "Bearer " + s.token}})
				}
			} else {
				entry = []tomlKey{{"command", s.command}, {"args", s.args}}
			}
			return []clientFile{{path: filepath.Join(dir, "config.toml"), format: "toml",
				settings: []setting{{path: []string{"mcp_servers", "cordon"}, value: entry}}}}, nil
		}},
	{name: "opencode", label: "opencode", scopes: []string{"project", "user"},
		files: func(scope, home, cwd string, s server, off bool) ([]clientFile, error) {
			entry := obj{{"type", "local"}, {"command", strs(append([]string{s.command}, s.args...)...)}, {"enabled", true}}
			if s.url != "" {
				entry = s.withHeaders(obj{{"type", "remote"}, {"url", s.url}, {"enabled", true}})
			}
			path := filepath.Join(cwd, "opencode.json")
			if scope == "user" {
				dir := os.Getenv("XDG_CONFIG_HOME")
				if dir == "" {
					dir = filepath.Join(home, ".config")
				}
				path = filepath.Join(dir, "opencode", "opencode.json")
			}
			sets := []setting{{path: []string{"mcp", "cordon"}, value: entry}}
			if off {
				sets = append(sets, opencodeDeny...)
			}
			return []clientFile{{path: path, format: "json", settings: sets}}, nil
		}},
	{name: "gemini", label: "Gemini CLI", scopes: []string{"project", "user"},
		note: func(string) string {
			return "Gemini CLI starts MCP servers only in a folder you trust: trust this one when Gemini CLI asks"
		},
		files: func(scope, home, cwd string, s server, off bool) ([]clientFile, error) {
			entry := obj{{"command", s.command}, {"args", strs(s.args...)}}
			if s.url != "" {
				entry = s.withHeaders(obj{{"httpUrl", s.url}})
			}
			base := cwd
			if scope == "user" {
				base = home
			}
			sets := []setting{{path: []string{"mcpServers", "cordon"}, value: entry}}
			if off {
				sets = append(sets, setting{path: []string{"tools", "exclude"}, value: geminiExclude, list: true})
			}
			return []clientFile{{path: filepath.Join(base, ".gemini", "settings.json"), format: "json", settings: sets}}, nil
		}},
	{name: "vscode", label: "VS Code", scopes: []string{"project", "user"},
		noBuiltin: "VS Code has no configuration file setting that turns off its built-in file tools (pick the tools in the chat's tool picker)",
		files: func(scope, home, cwd string, s server, _ bool) ([]clientFile, error) {
			entry := obj{{"type", "stdio"}, {"command", s.command}, {"args", strs(append(slices.Clone(s.args), "--cwd", "${workspaceFolder}")...)}}
			if s.url != "" {
				entry = s.withHeaders(obj{{"type", "http"}, {"url", s.url}})
			}
			path := filepath.Join(cwd, ".vscode", "mcp.json")
			if scope == "user" {
				dir, err := os.UserConfigDir()
				if err != nil {
					return nil, err
				}
				path = filepath.Join(dir, "Code", "User", "mcp.json")
			}
			return []clientFile{{path: path, format: "json", settings: []setting{{path: []string{"servers", "cordon"}, value: entry}}}}, nil
		}},
	{name: "cursor", label: "Cursor", scopes: []string{"project", "user"},
		noBuiltin: "Cursor has no configuration file setting that turns off its built-in file tools",
		files: func(scope, home, cwd string, s server, _ bool) ([]clientFile, error) {
			entry := obj{{"command", s.command}, {"args", strs(append(slices.Clone(s.args), "--cwd", "${workspaceFolder}")...)}}
			if s.url != "" {
				entry = s.withHeaders(obj{{"url", s.url}})
			}
			base := cwd
			if scope == "user" {
				base = home
			}
			return []clientFile{{path: filepath.Join(base, ".cursor", "mcp.json"), format: "json",
				settings: []setting{{path: []string{"mcpServers", "cordon"}, value: entry}}}}, nil
		}},
}

// runSetup is harness setup CLIENT: it prints, or with --write merges, the client's configuration.
func runSetup(o *options, args []string) error {
	sf := &setupFlags{}
	fs := setupFlagSet(sf)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return fmt.Errorf("%w: setup: %v", errUsage, err)
	}
	// A flag after CLIENT is a flag too (harness setup codex --write).
	rest := fs.Args()
	if len(rest) > 0 {
		if err := fs.Parse(rest[1:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return errHelp
			}
			return fmt.Errorf("%w: setup: %v", errUsage, err)
		}
		rest = append(rest[:1], fs.Args()...)
	}
	if len(rest) != 1 {
		return fmt.Errorf("%w: setup: name one CLIENT: %s", errUsage, strings.Join(clientNames(), ", "))
	}
	spec, ok := lookupClient(rest[0])
	if !ok {
		return fmt.Errorf("%w: setup: unknown client %q (known: %s)", errUsage, rest[0], strings.Join(clientNames(), ", "))
	}
	scope := sf.scope
	if scope == "" {
		scope = spec.scopes[0]
	}
	if !slices.Contains(spec.scopes, scope) {
		if scope != "project" && scope != "user" {
			return fmt.Errorf("%w: setup: --scope must be project or user (got %q)", errUsage, scope)
		}
		return fmt.Errorf("%w: setup: %s has no %s scope (its configuration is the user's)", errUsage, spec.label, scope)
	}
	srv, err := setupServer(sf)
	if err != nil {
		return err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	cwd, err := o.getwd()
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	files, err := spec.files(scope, home, cwd, srv, sf.builtinOff)
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	if sf.builtinOff && spec.noBuiltin != "" {
		fmt.Fprintf(o.stderr, "%s: note: %s; --disable-builtin-tools changes nothing\n", o.name, spec.noBuiltin)
	}
	for _, f := range files {
		if !sf.write {
			out, err := f.render()
			if err != nil {
				return err
			}
			fmt.Fprintf(o.stderr, "%s: %s, %s scope: merge into %s (or run with --write)\n", o.name, spec.label, scope, f.path)
			if _, err := o.stdout.Write(out); err != nil {
				return err
			}
			continue
		}
		changed, backup, err := f.merge()
		if err != nil {
			return err
		}
		switch {
		case !changed:
			fmt.Fprintf(o.stdout, "%s: already set, unchanged\n", f.path)
		case backup != "":
			fmt.Fprintf(o.stdout, "%s: updated (the previous file is %s)\n", f.path, backup)
		default:
			fmt.Fprintf(o.stdout, "%s: created\n", f.path)
		}
	}
	if spec.note != nil && sf.write {
		if n := spec.note(scope); n != "" {
			fmt.Fprintf(o.stderr, "%s: note: %s\n", o.name, n)
		}
	}
	if srv.token != "" && scope == "project" && sf.write {
		fmt.Fprintf(o.stderr, "%s: note: the bearer token is written into the project's file: keep it out of version control\n", o.name)
	}
	return nil
}

// setupServer is what the client runs (this binary, serve) or reaches (--http).
func setupServer(sf *setupFlags) (server, error) {
	if sf.httpURL == "" {
		if sf.tokenFile != "" {
			return server{}, fmt.Errorf("%w: setup: --token-file only applies with --http", errUsage)
		}
		exe, err := os.Executable()
		if err != nil {
			return server{}, fmt.Errorf("setup: the path of this binary: %w", err)
		}
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		return server{command: exe, args: []string{"serve"}}, nil
	}
	u, err := url.Parse(sf.httpURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return server{}, fmt.Errorf("%w: setup: --http %q is not an http(s) URL (such as http://127.0.0.1:8931/mcp)", errUsage, sf.httpURL)
	}
	s := server{url: sf.httpURL}
	if sf.tokenFile != "" {
		if s.token, err = readToken(sf.tokenFile); err != nil {
			return server{}, err
		}
	}
	return s, nil
}

// readToken returns the token of a token file: the first name:token line's token (the file
// serve --token-file reads), or the first line whole when it has no colon.
func readToken(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if _, token, ok := strings.Cut(line, ":"); ok {
			line = strings.TrimSpace(token)
		}
		if line != "" {
			return line, nil
		}
	}
	return "", fmt.Errorf("--token-file %s: no token", path)
}

// render is the file's settings alone, as the client's file would hold them.
func (f clientFile) render() ([]byte, error) {
	if f.format == "toml" {
		return renderTOML(f.settings)
	}
	doc, _, err := mergeJSON(nil, f.settings)
	return doc, err
}

// merge writes f's settings into its file (created with its directory when missing): unchanged
// when every setting is already there; otherwise the previous file is kept as FILE.cordon-backup
// and the new one replaces it atomically, with the old file's mode.
func (f clientFile) merge() (changed bool, backup string, err error) {
	old, err := os.ReadFile(f.path)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, "", err
	}
	var doc []byte
	if f.format == "toml" {
		doc, changed, err = mergeTOML(old, f.settings)
	} else {
		doc, changed, err = mergeJSON(old, f.settings)
	}
	if err != nil {
		return false, "", fmt.Errorf("%s: %w", f.path, err)
	}
	if !changed {
		return false, "", nil
	}
	mode := os.FileMode(0o644)
	if exists {
		st, err := os.Stat(f.path)
		if err != nil {
			return false, "", err
		}
		mode = st.Mode().Perm()
		backup = f.path + ".cordon-backup"
		if err := writeFileAtomic(backup, old, mode); err != nil {
			return false, "", err
		}
	} else if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		return false, "", err
	}
	return true, backup, writeFileAtomic(f.path, doc, mode)
}

// writeFileAtomic replaces path with data through a temporary file in its directory.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		_ = os.Remove(name)
	}
	return err
}
