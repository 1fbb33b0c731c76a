package fastpath

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"
)

// Room is the room a pre-encoded result should leave free before and after its encoding: the
// response envelope is then written around it in place (see Splices).
const Room = 128

// Splices holds the results a transport registered (Register) until its writer meets their tokens
// (Take). The zero value is ready to use.
type Splices struct {
	once   sync.Once
	prefix []byte // `"cordon.splice.<nonce>.`

	mu  sync.Mutex
	seq uint64
	set map[string]Spliced
}

// Spliced is a registered encoding: B[At:], with B[:At] and the spare capacity free.
type Spliced struct {
	B  []byte
	At int
}

// Register registers a result's encoding (b[at:], compact JSON: what json.Marshal would produce
// for the result) and returns a value to hand the SDK instead of the result. Its JSON encoding is a
// short token; the transport's writer puts the encoding in the token's place (Take), so the SDK's
// validating re-encodings scan the token, not the result. b is the transport's from then on: the
// envelope is written into b[:at] and the spare capacity when there is room (see Room). A token is
// random per Splices, so nothing a client sends can name one.
func (s *Splices) Register(b []byte, at int) json.Marshaler {
	s.init()
	s.mu.Lock()
	s.seq++
	tok := string(strconv.AppendUint(bytes.Clone(s.prefix), s.seq, 10)) + `"`
	s.set[tok] = Spliced{B: b, At: at}
	s.mu.Unlock()
	return token(tok)
}

// Buffer returns an empty buffer of at least n bytes of capacity for an encoding to hand to
// Register, reusing one Recycle gave back once its response was written.
func Buffer(n int) []byte {
	if b, ok := spliceBuffers.Get().(*[]byte); ok && cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]byte, 0, n)
}

// spliceBuffers holds written encodings' buffers up to maxPooledSplice bytes, for Buffer.
var spliceBuffers sync.Pool

const maxPooledSplice = 1 << 20

// Recycle gives a written encoding's buffer back to Buffer.
func Recycle(b []byte) {
	if cap(b) <= maxPooledSplice {
		b = b[:0]
		spliceBuffers.Put(&b)
	}
}

// token is a registered result's stand-in.
type token string

func (t token) MarshalJSON() ([]byte, error) { return []byte(t), nil }

func (s *Splices) init() {
	s.once.Do(func() {
		var nonce [8]byte
		_, _ = rand.Read(nonce[:]) // crypto/rand.Read never fails
		s.prefix = []byte(`"cordon.splice.` + hex.EncodeToString(nonce[:]) + `.`)
		s.set = map[string]Spliced{}
	})
}

// Take returns and forgets the encoding registered under a result, if the result is a token.
func (s *Splices) Take(result []byte) (Spliced, bool) {
	s.init()
	if !bytes.HasPrefix(result, s.prefix) {
		return Spliced{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.set[string(result)]
	delete(s.set, string(result))
	return r, ok
}
