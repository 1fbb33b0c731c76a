package notebook_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/notebook"
)

// BenchmarkParse2000 parses a 2,000-cell notebook (each cell two source lines and a stream).
func BenchmarkParse2000(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"cells": [`)
	for i := range 2000 {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `{"cell_type": "code", "execution_count": %d, "id": "c%07d", "metadata": {}, "outputs": [{"name": "stdout", "output_type": "stream", "text": ["value %d\n"]}], "source": ["x = %d\n", "print(x * 2)"]}`, i+1, i, i*2, i)
	}
	sb.WriteString(`], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	text := sb.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		nb, err := notebook.Parse(text)
		if err != nil || len(nb.Cells) != 2000 {
			b.Fatal(err)
		}
	}
}
