package history

import "os"

// PosixMode is the st_mode permission bits (0o7777) of an os.FileMode value, as records keep them.
func PosixMode(m os.FileMode) uint32 {
	p := uint32(m.Perm())
	if m&os.ModeSetuid != 0 {
		p |= 0o4000
	}
	if m&os.ModeSetgid != 0 {
		p |= 0o2000
	}
	if m&os.ModeSticky != 0 {
		p |= 0o1000
	}
	return p
}

// FileMode is the os.FileMode of st_mode permission bits.
func FileMode(p uint32) os.FileMode {
	m := os.FileMode(p & 0o777)
	if p&0o4000 != 0 {
		m |= os.ModeSetuid
	}
	if p&0o2000 != 0 {
		m |= os.ModeSetgid
	}
	if p&0o1000 != 0 {
		m |= os.ModeSticky
	}
	return m
}
