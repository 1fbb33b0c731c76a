// Command fakels is a language server for tests: every line of an open document that holds
// "ERROR: <text>" or "WARN: <text>" is a diagnostic of that text at that line, pushed with the
// document's version. FAKELS_DELAY (a Go duration) delays each push; FAKELS_CRASH=open or
// FAKELS_CRASH=change makes it exit with status 3 on that notification; FAKELS_PULL=1 makes it
// answer textDocument/diagnostic instead of pushing; FAKELS_START_FAIL=1 makes it exit before
// answering initialize; FAKELS_ESCAPE=1 escapes "=" in the URIs it pushes;
// FAKELS_DISK=1 first pushes, with no version, the diagnostics of a document's file as it is on
// disk (as gopls does for the files of a package it loaded); FAKELS_SIBLING=1 pushes the same
// diagnostics for "<uri>-sibling" after each document's; FAKELS_BURST (a Go duration) pushes,
// that long after each document's push, every other open document's, where each line
// "BREAKS: <text>" of the changed document is also an error <text> at the start of each other
// document (as gopls reports a package's files after the one that changed). It writes a line to
// its standard error when it starts.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

var (
	out   = bufio.NewWriter(os.Stdout)
	outMu sync.Mutex
	docs  = map[string]string{}
	vers  = map[string]int{}
	docMu sync.Mutex
)

func send(v any) {
	b, _ := json.Marshal(v)
	outMu.Lock()
	defer outMu.Unlock()
	fmt.Fprintf(out, "Content-Length: %d\r\n\r\n%s", len(b), b)
	out.Flush()
}

func diagnostics(text string) []map[string]any {
	ds := []map[string]any{}
	for i, line := range strings.Split(text, "\n") {
		for _, k := range []struct {
			tag string
			sev int
		}{{"ERROR: ", 1}, {"WARN: ", 2}} {
			if j := strings.Index(line, k.tag); j >= 0 {
				ds = append(ds, map[string]any{
					"range":    map[string]any{"start": map[string]any{"line": i, "character": j}, "end": map[string]any{"line": i, "character": len(line)}},
					"severity": k.sev, "source": "fake", "message": strings.TrimSpace(line[j+len(k.tag):]),
				})
			}
		}
	}
	return ds
}

func publish(uri string, version int, text string) {
	if d, err := time.ParseDuration(os.Getenv("FAKELS_DELAY")); err == nil {
		time.Sleep(d)
	}
	if os.Getenv("FAKELS_ESCAPE") == "1" { // as servers built on vscode-uri spell it
		uri = strings.ReplaceAll(uri, "=", "%3D")
	}
	send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
		"params": map[string]any{"uri": uri, "version": version, "diagnostics": diagnostics(text)}})
	if os.Getenv("FAKELS_SIBLING") == "1" { // as a server that reports on the files around
		send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
			"params": map[string]any{"uri": uri + "-sibling", "diagnostics": diagnostics(text)}})
	}
}

type burstJob struct {
	uri, text string
	due       time.Time
}

// bursts pushes, in the order the changes came, each changed document's other open documents.
func bursts(jobs <-chan burstJob) {
	for j := range jobs {
		time.Sleep(time.Until(j.due))
		var broken []map[string]any
		for _, line := range strings.Split(j.text, "\n") {
			if _, b, ok := strings.Cut(line, "BREAKS: "); ok {
				broken = append(broken, map[string]any{
					"range":    map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 1}},
					"severity": 1, "source": "fake", "message": strings.TrimSpace(b),
				})
			}
		}
		docMu.Lock()
		for other, t := range docs {
			if other != j.uri {
				send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
					"params": map[string]any{"uri": other, "version": vers[other], "diagnostics": append(diagnostics(t), broken...)}})
			}
		}
		docMu.Unlock()
	}
}

func main() {
	fmt.Fprintln(os.Stderr, "fakels: started")
	if os.Getenv("FAKELS_START_FAIL") == "1" {
		fmt.Fprintln(os.Stderr, "fakels: failing on purpose")
		os.Exit(2)
	}
	pull := os.Getenv("FAKELS_PULL") == "1"
	burst, burstErr := time.ParseDuration(os.Getenv("FAKELS_BURST"))
	jobs := make(chan burstJob, 64)
	if burstErr == nil {
		go bursts(jobs)
	}
	in := bufio.NewReader(os.Stdin)
	for {
		n := -1
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(in, body); err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version int    `json:"version"`
					Text    string `json:"text"`
				} `json:"textDocument"`
				ContentChanges []struct {
					Text string `json:"text"`
				} `json:"contentChanges"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		td := m.Params.TextDocument
		switch m.Method {
		case "initialize":
			caps := map[string]any{"textDocumentSync": 1}
			if pull {
				caps["diagnosticProvider"] = map[string]any{"interFileDependencies": false}
			}
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"capabilities": caps}})
		case "shutdown":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
		case "exit":
			os.Exit(0)
		case "textDocument/didOpen", "textDocument/didChange":
			if c := os.Getenv("FAKELS_CRASH"); (c == "open" && m.Method == "textDocument/didOpen") || (c == "change" && m.Method == "textDocument/didChange") {
				fmt.Fprintln(os.Stderr, "fakels: crashing on purpose")
				os.Exit(3)
			}
			text := td.Text
			if m.Method == "textDocument/didChange" && len(m.Params.ContentChanges) > 0 {
				text = m.Params.ContentChanges[0].Text
			}
			docMu.Lock()
			docs[td.URI] = text
			vers[td.URI] = td.Version
			docMu.Unlock()
			if !pull && os.Getenv("FAKELS_DISK") == "1" {
				if b, err := os.ReadFile(strings.TrimPrefix(td.URI, "file://")); err == nil {
					send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
						"params": map[string]any{"uri": td.URI, "diagnostics": diagnostics(string(b))}})
				}
			}
			if !pull {
				go publish(td.URI, td.Version, text)
				if burstErr == nil {
					jobs <- burstJob{td.URI, text, time.Now().Add(burst)}
				}
			}
		case "textDocument/diagnostic":
			docMu.Lock()
			text := docs[td.URI]
			docMu.Unlock()
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"kind": "full", "items": diagnostics(text)}})
		default:
			if len(m.ID) > 0 && m.Method != "" {
				send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "no"}})
			}
		}
	}
}
