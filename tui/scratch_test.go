package tui

import (
	"fmt"
	"testing"
)

func TestScratch(t *testing.T) {
	hs := newHarness(t, newDemoTrace(), 80, 24, true)
	hs.keys("2", "o")
	fmt.Println(hs.view())
	hs.keys("O")
	fmt.Println(hs.view())
	hs.keys("esc", "1", "S")
	fmt.Println(hs.view())
	hs2 := newHarness(t, newDemoTrace(), 80, 24, false)
	hs2.keys("O", "j", "l", "l", "c")
	fmt.Println(hs2.view())
}
