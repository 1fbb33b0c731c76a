package local

import (
	"bytes"
	"encoding/binary"
)

// exifHeader prefixes the TIFF structure in a JPEG APP1 segment (and, in
// some writers, in a WebP EXIF chunk).
var exifHeader = []byte("Exif\x00\x00")

// exifOrientation returns the orientation tag (0x0112) of IFD0 of the TIFF
// structure b (with or without the "Exif\0\0" prefix): 1..8, or 0 when the
// tag is absent, out of range or the structure is malformed. It never reads
// outside b.
func exifOrientation(b []byte) int {
	b = bytes.TrimPrefix(b, exifHeader)
	if len(b) < 8 {
		return 0
	}
	var order binary.ByteOrder
	switch string(b[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return 0
	}
	if order.Uint16(b[2:4]) != 42 {
		return 0
	}
	off := uint64(order.Uint32(b[4:8]))
	if off+2 > uint64(len(b)) {
		return 0
	}
	n := uint64(order.Uint16(b[off : off+2]))
	entries := off + 2
	for i := uint64(0); i < n; i++ {
		e := entries + i*12
		if e+12 > uint64(len(b)) {
			return 0
		}
		if order.Uint16(b[e:e+2]) != 0x0112 {
			continue
		}
		var v int
		switch order.Uint16(b[e+2 : e+4]) {
		case 3: // SHORT
			v = int(order.Uint16(b[e+8 : e+10]))
		case 4: // LONG (tolerated)
			v = int(order.Uint32(b[e+8 : e+12]))
		default:
			return 0
		}
		if v < 1 || v > 8 {
			return 0
		}
		return v
	}
	return 0
}
