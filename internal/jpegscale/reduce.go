// This file is not from image/jpeg: it is what the fork adds (see the
// package doc).

package jpegscale

import "math"

// The reduced inverse DCT. A block's pixels are f = M·F·Mᵀ (+128), where F
// is the 8×8 block of dequantized coefficients (row: vertical frequency)
// and M[x][u] = C(u)/2·cos((2x+1)uπ/16), C(0) = 1/√2, C(u>0) = 1 (T.81
// A.3.3). The average of each k×k square of f is A·F·Aᵀ, where row r of A
// is the mean of rows r·k … r·k+k-1 of M: so a scaled block is the exact box
// average of the full one (before rounding and clipping), computed from the
// coefficients without the full 8×8 transform. At k = 8 every row of M but
// the first sums to zero: the pixel is the DC term / 8.

// reduceTables[n] is A for an output block of n×n (n = 4 or 2), n rows of 8.
var reduceTables = map[int][]float32{4: boxRows(4), 2: boxRows(2)}

// boxRows computes A for n×n outputs.
func boxRows(n int) []float32 {
	k := 8 / n
	a := make([]float32, 8*n)
	for r := range n {
		for u := range 8 {
			c := 1.0
			if u == 0 {
				c = 1 / math.Sqrt2
			}
			s := 0.0
			for x := r * k; x < (r+1)*k; x++ {
				s += c / 2 * math.Cos(float64(2*x+1)*float64(u)*math.Pi/16)
			}
			a[8*r+u] = float32(s / float64(k))
		}
	}
	return a
}

// reduce writes the n×n (n = 4, 2 or 1) pixel block of the dequantized
// coefficients b (natural order) to dst, rows stride apart: level-shifted
// by 128, rounded and clipped to [0, 255].
func reduce(b *block, n int, dst []byte, stride int) {
	if n == 1 {
		dst[0] = clip8(float32(b[0])/8 + 128)
		return
	}
	a := reduceTables[n]
	// Columns past the last non-zero one, and rows past the last non-zero
	// one, contribute nothing (most high frequencies are zero).
	lastRow, lastCol := 0, 0
	for v := 0; v < 8; v++ {
		row := b[8*v : 8*v+8 : 8*v+8]
		for u := 7; u >= 0; u-- {
			if row[u] != 0 {
				lastRow = v
				lastCol = max(lastCol, u)
				break
			}
		}
	}
	// tmp[r][u] = Σ_v A[r][v]·F[v][u]: the vertical pass, n rows of 8.
	var tmp [4 * 8]float32
	for r := 0; r < n; r++ {
		ar := a[8*r : 8*r+8 : 8*r+8]
		t := tmp[8*r : 8*r+8 : 8*r+8]
		for v := 0; v <= lastRow; v++ {
			w := ar[v]
			row := b[8*v : 8*v+8 : 8*v+8]
			for u := 0; u <= lastCol; u++ {
				t[u] += w * float32(row[u])
			}
		}
	}
	// out[r][c] = Σ_u tmp[r][u]·A[c][u]: the horizontal pass.
	for r := 0; r < n; r++ {
		t := tmp[8*r : 8*r+8 : 8*r+8]
		out := dst[r*stride : r*stride+n : r*stride+n]
		for c := 0; c < n; c++ {
			ac := a[8*c : 8*c+8 : 8*c+8]
			var s float32
			for u := 0; u <= lastCol; u++ {
				s += t[u] * ac[u]
			}
			out[c] = clip8(s + 128)
		}
	}
}

// clip8 rounds v to the nearest byte value, clipped to [0, 255].
func clip8(v float32) uint8 {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v + 0.5)
}
