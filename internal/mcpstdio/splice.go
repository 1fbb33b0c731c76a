package mcpstdio

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"
)

// SpliceRoom is the room a pre-encoded result should leave free before and after its encoding: the
// response envelope is then written around it in place (see Transport.Splice).
const SpliceRoom = 128

// splices holds the results registered with Transport.Splice until Write meets their tokens.
type splices struct {
	once   sync.Once
	prefix []byte // `"cordon.splice.<nonce>.`

	mu  sync.Mutex
	seq uint64
	set map[string]spliced
}

// spliced is a registered encoding: b[at:], with b[:at] and the spare capacity free.
type spliced struct {
	b  []byte
	at int
}

// Splice registers a result's encoding (b[at:], compact JSON: what encoding/json would produce for
// the result) and returns a value to hand the SDK instead of the result. Its JSON encoding is a
// short token; this transport's Write puts the encoding in the token's place, so the SDK's
// validating re-encodings scan the token, not the result. b is the transport's from then on: the
// envelope is written into b[:at] and the spare capacity when there is room (see SpliceRoom).
// A token is random per transport, so nothing a client sends can name one.
func (t *Transport) Splice(b []byte, at int) json.Marshaler {
	s := &t.splices
	s.init()
	s.mu.Lock()
	s.seq++
	tok := string(strconv.AppendUint(bytes.Clone(s.prefix), s.seq, 10)) + `"`
	s.set[tok] = spliced{b: b, at: at}
	s.mu.Unlock()
	return token(tok)
}

// SpliceBuffer returns an empty buffer of at least n bytes of capacity for an encoding to hand to
// Splice, reusing one an earlier Splice gave back once its response was written.
func SpliceBuffer(n int) []byte {
	if b, ok := spliceBuffers.Get().(*[]byte); ok && cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]byte, 0, n)
}

// spliceBuffers holds written encodings' buffers up to maxPooledSplice bytes, for SpliceBuffer.
var spliceBuffers sync.Pool

const maxPooledSplice = 1 << 20

func recycle(b []byte) {
	if cap(b) <= maxPooledSplice {
		b = b[:0]
		spliceBuffers.Put(&b)
	}
}

// token is a registered result's stand-in.
type token string

func (t token) MarshalJSON() ([]byte, error) { return []byte(t), nil }

func (s *splices) init() {
	s.once.Do(func() {
		var nonce [8]byte
		_, _ = rand.Read(nonce[:]) // crypto/rand.Read never fails
		s.prefix = []byte(`"cordon.splice.` + hex.EncodeToString(nonce[:]) + `.`)
		s.set = map[string]spliced{}
	})
}

// take returns and forgets the encoding registered under a result, if the result is a token.
func (s *splices) take(result []byte) (spliced, bool) {
	s.init()
	if !bytes.HasPrefix(result, s.prefix) {
		return spliced{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.set[string(result)]
	delete(s.set, string(result))
	return r, ok
}
