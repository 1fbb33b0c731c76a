// Package hosttest holds what the tests and benchmarks of the hosts (mcphost, jsonlines, cmd/harness)
// share: an SSE body reader and the 2,000-line file the benchmarks read and edit.
package hosttest

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
)

// SSEMessages reads a text/event-stream body and sends each event's data that is a JSON object, its
// members' values as sent, until the stream ends (events of up to 16 MiB); the channel is then
// closed.
func SSEMessages(body io.Reader) <-chan map[string]json.RawMessage {
	ch := make(chan map[string]json.RawMessage, 16)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var m map[string]json.RawMessage
				if json.Unmarshal([]byte(data), &m) == nil {
					ch <- m
				}
			}
		}
	}()
	return ch
}
