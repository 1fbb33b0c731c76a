// This file is not from image/jpeg: it is what the fork adds (see the
// package doc).

package jpegscale

// reduce writes the n×n pixel block (n = 4, 2 or 1) of the dequantized
// coefficients b (natural order) to dst, rows stride apart: each pixel the
// average of a k×k square (k = 8/n) of the full block's inverse DCT, level
// shifted by 128, rounded and clipped to [0, 255] (the full decode clips
// each pixel before any average: the two differ only where a square holds
// clipped pixels). b is overwritten.
//
// The inverse DCT is linear, so the averages are taken between its passes:
// idctRows transforms the 8 rows; each row's k-sample groups are averaged,
// leaving n columns; the column pass (idctColsReduced) transforms only
// those n and averages each column's k-sample groups of outputs. At n = 1
// the average is the DC term / 8, with no transform at all. What scaling
// saves beyond the transform is everything after it: the planes, the colour
// conversion and the caller's resize are 4, 16 or 64 times smaller.
func reduce(b *block, n int, dst []byte, stride int) {
	if n == 1 {
		dst[0] = level((b[0] + 4) >> 3)
		return
	}
	idctRows(b)
	for i := range 8 {
		x := b[8*i : 8*i+8 : 8*i+8]
		if n == 4 {
			// Q9.20 values: the sum of two is Q10.20, its half Q9.20.
			x[0], x[1], x[2], x[3] = (x[0]+x[1])>>1, (x[2]+x[3])>>1, (x[4]+x[5])>>1, (x[6]+x[7])>>1
		} else {
			x[0], x[1] = (x[0]+x[1]+x[2]+x[3])>>2, (x[4]+x[5]+x[6]+x[7])>>2
		}
	}
	idctColsReduced(b, n, dst, stride)
}

// idctColsReduced is idctCols on the first n columns of b (Q9.20), whose
// eight outputs per column (idctCol) are averaged in groups of 8/n before
// the final shift, level shifted, clipped and written to column i of dst's
// n rows.
func idctColsReduced(b *block, n int, dst []byte, stride int) {
	for i := 0; i < n; i++ {
		x0, x1, x2, x3, x4, x5, x6, x7 := idctCol(b, i)
		// x[01234567] are rows 0..7 of the column, each carrying the +½
		// that rounds idctCols' shift by 18; a sum of k carries k/2, which
		// rounds the sum's shift by 18+log2(k) (its average).
		if n == 4 {
			dst[0*stride+i] = level((x0 + x1) >> 19)
			dst[1*stride+i] = level((x2 + x3) >> 19)
			dst[2*stride+i] = level((x4 + x5) >> 19)
			dst[3*stride+i] = level((x6 + x7) >> 19)
		} else {
			dst[0*stride+i] = level((x0 + x1 + x2 + x3) >> 20)
			dst[1*stride+i] = level((x4 + x5 + x6 + x7) >> 20)
		}
	}
}

// level shifts an inverse-DCT output by +128 and clips it to [0, 255], as
// reconstructBlock does at full size.
func level(c int32) uint8 {
	if c < -128 {
		return 0
	}
	if c > 127 {
		return 255
	}
	return uint8(c + 128)
}
