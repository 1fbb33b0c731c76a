package staging

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxBase is how many bytes of the target's name the staging names keep: a staging directory
// name with a 10-digit pid then fits the 255-byte name limit of Linux and macOS file systems, so
// any name the target itself can have is writable.
const MaxBase = 255 - len(".") - len(".") - 10 - len(".") - 36 - len(".tmpdir")

const suffix = ".tmpdir"

// fileSuffixName ends the name of a linked temp file (FileName).
const fileSuffixName = ".tmp"

// Base is base cut to at most MaxBase bytes at a UTF-8 boundary (the same in every process).
func Base(base string) string {
	if len(base) <= MaxBase {
		return base
	}
	n := MaxBase
	for n > 0 && !utf8.RuneStart(base[n]) {
		n--
	}
	return base[:n]
}

// Name is the staging directory name of a target named base in this process:
// ".<Base(base)>.<pid>.<random uuid>.tmpdir".
func Name(base string) string {
	return "." + Base(base) + "." + strconv.Itoa(os.Getpid()) + "." + RandomUUID() + suffix
}

// FileName is the name under which a write links its unnamed temp file (O_TMPFILE) beside a
// target named base, for the instant before it renames it over the target:
// ".<Base(base)>.<pid>.<random uuid>.tmp" (shorter than Name, so it fits NAME_MAX too).
func FileName(base string) string {
	return "." + Base(base) + "." + strconv.Itoa(os.Getpid()) + "." + RandomUUID() + fileSuffixName
}

// OwnerPID parses the pid of a staging directory name; ok is false for any other name.
func OwnerPID(name string) (pid int, ok bool) {
	return ownerPID(name, suffix)
}

// FileOwnerPID parses the pid of a linked temp file's name (FileName); ok is false for any other
// name.
func FileOwnerPID(name string) (pid int, ok bool) {
	return ownerPID(name, fileSuffixName)
}

func ownerPID(name, suffix string) (pid int, ok bool) {
	rest, ok := strings.CutSuffix(name, suffix)
	if !ok || len(rest) < 1+36 || rest[len(rest)-37] != '.' {
		return 0, false
	}
	rest = rest[:len(rest)-37]
	dot := strings.LastIndexByte(rest, '.')
	if dot < 2 || rest[0] != '.' {
		return 0, false
	}
	pid, err := strconv.Atoi(rest[dot+1:])
	if err != nil || pid <= 0 || strconv.Itoa(pid) != rest[dot+1:] {
		return 0, false
	}
	return pid, true
}

// RandomUUID returns a random (version 4) UUID in its canonical text form.
func RandomUUID() string {
	var u [16]byte
	_, _ = rand.Read(u[:]) // never fails (crypto/rand panics on failure)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}
