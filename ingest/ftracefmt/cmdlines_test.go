package ftracefmt

import (
	"maps"
	"testing"
)

func TestParseTgids(t *testing.T) {
	in := []byte("1 1\n25090 25088\nbad\n7 -1\n12  12\n99999999999 1\n\x00")
	want := map[int32]int32{1: 1, 25090: 25088, 12: 12}
	if got := ParseTgids(in); !maps.Equal(got, want) {
		t.Errorf("ParseTgids = %v, want %v", got, want)
	}
}
