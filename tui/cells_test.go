package tui

import "testing"

func TestCellHelpers(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{cutLeft("hello world", 3, "«"), "«lo world"},
		{cutLeft("日本語テキスト", 3, "«"), "« 語テキスト"}, // 本 cut in two: its shown cell is a space
		{cutLeft("a日b本c", 3, "«"), "«b本c"},
		{cutLeft("abc", 5, "«"), "«"},
		{truncCells("hello world", 6, "…"), "hello…"},
		{truncCells("日本語テキスト", 6, "…"), "日本…"},
		{truncCells("short", 6, "…"), "short"},
		{truncCells("hello", 0, "…"), ""},
		{padCells("日本", 6), "日本  "},
		{padCells("toolong", 3), "toolong"},
	} {
		if c.s != c.want {
			t.Errorf("got %q, want %q", c.s, c.want)
		}
	}
	for s, w := range map[string]int{"abc": 3, "日本": 4, "│▒": 2, "e\u0301": 1, "👍🏽": 2} {
		if got := cells(s); got != w {
			t.Errorf("cells(%q) = %d, want %d", s, got, w)
		}
	}
}
