package frame

import "testing"

func TestCellHelpers(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{CutLeft("hello world", 3, "«"), "«lo world"},
		{CutLeft("日本語テキスト", 3, "«"), "« 語テキスト"}, // 本 cut in two: its shown cell is a space
		{CutLeft("a日b本c", 3, "«"), "«b本c"},
		{CutLeft("abc", 5, "«"), "«"},
		{TruncCells("hello world", 6, "…"), "hello…"},
		{TruncCells("日本語テキスト", 6, "…"), "日本…"},
		{TruncCells("short", 6, "…"), "short"},
		{TruncCells("hello", 0, "…"), ""},
		{PadCells("日本", 6), "日本  "},
		{PadCells("toolong", 3), "toolong"},
	} {
		if c.s != c.want {
			t.Errorf("got %q, want %q", c.s, c.want)
		}
	}
	for s, w := range map[string]int{"abc": 3, "日本": 4, "│▒": 2, "e\u0301": 1, "👍🏽": 2} {
		if got := Cells(s); got != w {
			t.Errorf("cells(%q) = %d, want %d", s, got, w)
		}
	}
}
