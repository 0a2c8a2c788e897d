// Package ccs imports CyberConnect2 CCS ("CCSF") files: plain .ccs files,
// gzip-compressed ones (.ccs, .cmp) and whole DATA.BIN archives (gzip
// members on 0x800-byte sectors). It walks the chunk stream
// (specs/ccs-container.md), reads every Anime chunk (0xCCCC0700) with its
// controller and per-frame records, and converts each into one
// model.Animation whose controller curves keep the raw ccAnm keys, so that
// package sample can replay them with the engine's exact rules
// (specs/ccs-anime-playback.txt).
//
// The package registers itself as format "ccs"; import it for its side
// effect. Its reader types (Header, Index, Scene, Anime, the records) are
// exported so that tools and tests can inspect a file below the model.
package ccs
