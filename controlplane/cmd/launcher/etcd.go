package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
)

// etcdEndpointFile holds the client URL of the running etcd, for "launcher compact".
const etcdEndpointFile = "etcd-endpoint"

// startEtcd starts an embedded single-member etcd on loopback, without fsync: test data need not survive a crash.
func startEtcd(dataDir, logFile string, clientPort, peerPort int) (*embed.Etcd, string, error) {
	cfg := embed.NewConfig()
	cfg.Name = "watchkeeper"
	cfg.Dir = dataDir
	cfg.UnsafeNoFsync = true
	cfg.LogLevel = "warn"
	cfg.LogOutputs = []string{logFile}
	clientURL := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", clientPort)}
	peerURL := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", peerPort)}
	cfg.ListenClientUrls = []url.URL{clientURL}
	cfg.AdvertiseClientUrls = []url.URL{clientURL}
	cfg.ListenPeerUrls = []url.URL{peerURL}
	cfg.AdvertisePeerUrls = []url.URL{peerURL}
	cfg.InitialCluster = cfg.Name + "=" + peerURL.String()
	cfg.ListenMetricsUrls = nil
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("etcd did not start: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
		return e, clientURL.String(), nil
	case <-time.After(60 * time.Second):
		e.Close()
		return nil, "", fmt.Errorf("etcd was not ready after 60s")
	}
}

// compact compacts the running control plane's etcd to its current revision, so that every older
// resourceVersion is gone: a watch from one of them gets 410 Gone from a resource outside the watch cache.
func compact(dir string) error {
	endpoint, err := os.ReadFile(filepath.Join(dir, etcdEndpointFile))
	if err != nil {
		return fmt.Errorf("no control plane is running in %s: %w", dir, err)
	}
	client, err := clientv3.New(clientv3.Config{
		Endpoints:   []string{strings.TrimSpace(string(endpoint))},
		DialTimeout: 10 * time.Second,
	})
	if err != nil {
		return err
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// A write moves the revision past every object's resourceVersion, so compacting to it drops them all.
	put, err := client.Put(ctx, "/watchkeeper/compact-marker", time.Now().String())
	if err != nil {
		return err
	}
	revision := put.Header.Revision
	if _, err := client.Compact(ctx, revision, clientv3.WithCompactPhysical()); err != nil {
		return err
	}
	fmt.Println(revision)
	return nil
}
