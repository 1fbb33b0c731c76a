// Package ssetest reads Server-Sent Events bodies in tests of the HTTP transport.
package ssetest

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
)

// Messages reads a text/event-stream body and sends each event's data that is a JSON object, its
// members' values as sent, until the stream ends (events of up to 16 MiB); the channel is then
// closed.
func Messages(body io.Reader) <-chan map[string]json.RawMessage {
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
