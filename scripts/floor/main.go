// Command floor is the floor of an MCP stdio server written in Go, for e2e/bench.mjs: it answers
// initialize, tools/list and tools/call with results recorded from `harness serve` (the JSON file
// replay.mjs reads: {tools, results: {name: result}}), encoded once, and does only the I/O a call
// needs: a read reads the named file whole; an edit reads it, writes the edited text to a new file
// in its directory, fsyncs it, renames it over the file and fsyncs the directory (a durable
// replace). Its server CPU per call is what any Go server costs on this machine for that I/O and
// that response, before any checking, confinement, history or rendering.
//
//	go run ./scripts/floor recorded.json
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string `json:"protocolVersion"`
		Name            string `json:"name"`
		Arguments       struct {
			FilePath  string `json:"file_path"`
			OldString string `json:"old_string"`
			NewString string `json:"new_string"`
		} `json:"arguments"`
	} `json:"params"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: floor recorded.json")
		os.Exit(2)
	}
	b, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var rec struct {
		Tools   json.RawMessage            `json:"tools"`
		Results map[string]json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var m request
		if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
			continue
		}
		var result []byte
		switch m.Method {
		case "initialize":
			result, _ = json.Marshal(map[string]any{"protocolVersion": m.Params.ProtocolVersion,
				"capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "floor", "version": "0"}})
		case "tools/list":
			result = append(append([]byte(`{"tools":`), rec.Tools...), '}')
		case "tools/call":
			result = rec.Results[m.Params.Name]
			if err := work(m.Params.Name, m.Params.Arguments.FilePath, m.Params.Arguments.OldString, m.Params.Arguments.NewString); err != nil {
				result, _ = json.Marshal(map[string]any{"isError": true, "content": []any{map[string]any{"type": "text", "text": err.Error()}}})
			}
		default:
			result = []byte(`{}`)
		}
		out.WriteString(`{"jsonrpc":"2.0","id":`)
		out.Write(m.ID)
		out.WriteString(`,"result":`)
		out.Write(result)
		out.WriteString("}\n")
		if out.Flush() != nil {
			return
		}
	}
}

// work does a call's I/O.
func work(tool, path, old, new string) error {
	b, err := os.ReadFile(path)
	if err != nil || tool != "edit" {
		return err
	}
	text := strings.Replace(string(b), old, new, 1)
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".floor-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
