package history

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHasMagic(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "x.tti")
	b, err := Create(idx, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Close(10); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "t.json")
	os.WriteFile(other, []byte(`[{"ph":"X"}]`), 0o644)
	short := filepath.Join(dir, "short")
	os.WriteFile(short, magic[:4], 0o644)
	for path, want := range map[string]bool{idx: true, other: false, short: false, dir: false, filepath.Join(dir, "none"): false} {
		if got := HasMagic(path); got != want {
			t.Errorf("HasMagic(%s) = %v, want %v", filepath.Base(path), got, want)
		}
	}
}
