package search

import "unsafe"

// dirent is one directory entry: its name and its d_type (unix.DT_*; DT_UNKNOWN when the
// filesystem does not say).
type dirent struct {
	name string
	typ  uint8
}

// parseDirents appends the linux_dirent64 records of b: d_ino (8 bytes), d_off (8), d_reclen (2),
// d_type (1), then the NUL-terminated name.
func parseDirents(b []byte, out []dirent) []dirent {
	const nameOff = 19
	for len(b) >= nameOff {
		reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
		if reclen < nameOff || reclen > len(b) {
			break
		}
		rec := b[:reclen]
		b = b[reclen:]
		name := rec[nameOff:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if *(*uint64)(unsafe.Pointer(&rec[0])) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		out = append(out, dirent{name: string(name), typ: rec[18]})
	}
	return out
}
