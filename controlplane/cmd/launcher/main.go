// Command launcher runs a real Kubernetes control plane on loopback for Watchkeeper's tests: an embedded etcd,
// kube-apiserver and kube-controller-manager (garbage collector and namespace controller only).
//
//	launcher start DIR BINDIR [FLAG...]  start (FLAGs go to kube-apiserver), write DIR/kubeconfig when ready,
//	                                     run until stdin closes or a signal
//	launcher compact DIR                 compact etcd's history to its current revision
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 3 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "start":
		if len(os.Args) < 4 {
			usage()
		}
		err = start(os.Args[2], os.Args[3], os.Args[4:])
	case "compact":
		err = compact(os.Args[2])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "controlplane:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: launcher start DIR BINDIR [KUBE-APISERVER-FLAG...] | launcher compact DIR")
	os.Exit(2)
}
