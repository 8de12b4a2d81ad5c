package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Files written into DIR; the Java extension and the README rely on these names.
const (
	kubeconfigFile             = "kubeconfig"
	unprivilegedKubeconfigFile = "kubeconfig-unprivileged"
	kubectlLink                = "kubectl"
	compactScript              = "compact"
	readyTimeout               = 3 * time.Minute
)

// start runs the control plane until stdin closes or SIGTERM/SIGINT arrives, then stops it and removes its data.
// extraFlags are added to kube-apiserver's flags (e.g. --feature-gates=WatchList=false).
func start(dir, binDir string, extraFlags []string) (err error) {
	started := time.Now()
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	if binDir, err = filepath.Abs(binDir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	dataDir := filepath.Join(dir, "data")
	logDir := filepath.Join(dir, "logs")
	written := []string{dataDir, filepath.Join(dir, "pki"), filepath.Join(dir, etcdEndpointFile),
		filepath.Join(dir, kubeconfigFile), filepath.Join(dir, unprivilegedKubeconfigFile),
		filepath.Join(dir, "kubeconfig-controller-manager"), filepath.Join(dir, kubectlLink),
		filepath.Join(dir, compactScript)}
	defer func() {
		for _, path := range written {
			if removeErr := os.RemoveAll(path); removeErr != nil && err == nil {
				err = removeErr
			}
		}
	}()
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return err
	}

	stop := make(chan string, 4)
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop <- "stdin closed"
	}()
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() { stop <- "got " + (<-signals).String() }()

	ports, err := freePorts(3)
	if err != nil {
		return err
	}
	etcd, etcdURL, err := startEtcd(dataDir, filepath.Join(logDir, "etcd.log"), ports[0], ports[1])
	if err != nil {
		return err
	}
	defer etcd.Close()
	if err := os.WriteFile(filepath.Join(dir, etcdEndpointFile), []byte(etcdURL+"\n"), 0o644); err != nil {
		return err
	}

	keys, err := writePKI(filepath.Join(dir, "pki"))
	if err != nil {
		return err
	}
	server := fmt.Sprintf("https://127.0.0.1:%d", ports[2])
	apiserver, err := startChild(filepath.Join(binDir, "kube-apiserver"), filepath.Join(logDir, "kube-apiserver.log"),
		append(apiserverArgs(etcdURL, ports[2], keys), extraFlags...)...)
	if err != nil {
		return err
	}
	defer apiserver.stop()
	if err := awaitReady(server, keys, apiserver, stop); err != nil {
		return err
	}

	if err := writeKubeconfig(filepath.Join(dir, "kubeconfig-controller-manager"), server, keys.caCert, keys.adminToken, "default"); err != nil {
		return err
	}
	controllerManager, err := startChild(filepath.Join(binDir, "kube-controller-manager"),
		filepath.Join(logDir, "kube-controller-manager.log"),
		"--kubeconfig="+filepath.Join(dir, "kubeconfig-controller-manager"),
		"--controllers=garbage-collector-controller,namespace-controller",
		"--leader-elect=false",
		"--secure-port=0",
		"--concurrent-gc-syncs=5",
		"--v=1")
	if err != nil {
		return err
	}
	defer controllerManager.stop()

	if err := writeKubeconfig(filepath.Join(dir, unprivilegedKubeconfigFile), server, keys.caCert, keys.unprivilegedToken, "default"); err != nil {
		return err
	}
	if err := os.Symlink(filepath.Join(binDir, "kubectl"), filepath.Join(dir, kubectlLink)); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	script := fmt.Sprintf("#!/bin/sh\n# Compacts this control plane's etcd: every older resourceVersion is then gone.\nexec %q compact %q\n", self, dir)
	if err := os.WriteFile(filepath.Join(dir, compactScript), []byte(script), 0o755); err != nil {
		return err
	}
	// The admin kubeconfig comes last: its presence means everything is ready.
	if err := writeKubeconfig(filepath.Join(dir, kubeconfigFile), server, keys.caCert, keys.adminToken, "default"); err != nil {
		return err
	}
	fmt.Printf("control plane ready at %s in %.1fs; kubeconfig %s\n", server, time.Since(started).Seconds(),
		filepath.Join(dir, kubeconfigFile))

	select {
	case reason := <-stop:
		fmt.Printf("control plane stopping: %s\n", reason)
		return nil
	case <-apiserver.exited:
		return fmt.Errorf("kube-apiserver exited: %v; see %s", apiserver.err, apiserver.log)
	case <-controllerManager.exited:
		return fmt.Errorf("kube-controller-manager exited: %v; see %s", controllerManager.err, controllerManager.log)
	}
}

func apiserverArgs(etcdURL string, port int, keys *pki) []string {
	return []string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		// The endpoint reconciler refuses a loopback address; nothing here needs the kubernetes Service's endpoints.
		"--endpoint-reconciler-type=none",
		fmt.Sprintf("--secure-port=%d", port),
		"--tls-cert-file=" + keys.servingCert,
		"--tls-private-key-file=" + keys.servingKey,
		"--token-auth-file=" + keys.tokens,
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + keys.serviceAccountKey,
		"--service-account-signing-key-file=" + keys.serviceAccountKey,
		// Room for thousands of Services (a /24 holds 254): the dependents benchmark makes one per WebPage.
		"--service-cluster-ip-range=10.0.0.0/16",
		// No kubelet or token controller runs: pods would wait for a default service account that never comes.
		"--disable-admission-plugins=ServiceAccount",
		"--allow-privileged=true",
		// One built-in resource served straight from etcd, so a compaction reaches its watches as 410 Gone.
		"--watch-cache-sizes=podtemplates#0",
		"--profiling=false",
		"--v=1",
	}
}

// child is a started control-plane process whose output goes to its log file.
type child struct {
	cmd    *exec.Cmd
	log    string
	exited chan struct{}
	err    error
}

func startChild(binary, logFile string, args ...string) (*child, error) {
	if _, err := os.Stat(binary); err != nil {
		return nil, fmt.Errorf("%s is not built: %w", binary, err)
	}
	out, err := os.Create(logFile)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(binary, args...)
	cmd.Stdout = out
	cmd.Stderr = out
	// Its own process group: a Ctrl-C in the terminal reaches the launcher, which stops the children in order.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, err
	}
	c := &child{cmd: cmd, log: logFile, exited: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		out.Close()
		close(c.exited)
	}()
	return c, nil
}

func (c *child) stop() {
	select {
	case <-c.exited:
		return
	default:
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.exited:
	case <-time.After(15 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
}

func awaitReady(server string, keys *pki, apiserver *child, stop <-chan string) error {
	ca, err := os.ReadFile(keys.caCert)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}
	deadline := time.Now().Add(readyTimeout)
	last := "no answer yet"
	for time.Now().Before(deadline) {
		select {
		case <-apiserver.exited:
			return fmt.Errorf("kube-apiserver exited before it was ready: %v; see %s", apiserver.err, apiserver.log)
		case reason := <-stop:
			return errors.New("stopped before ready: " + reason)
		case <-time.After(250 * time.Millisecond):
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, server+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+keys.adminToken)
		resp, err := client.Do(req)
		if err != nil {
			last = err.Error()
			cancel()
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		last = fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	return fmt.Errorf("kube-apiserver not ready after %s (last /readyz: %s); see %s", readyTimeout, last, apiserver.log)
}

func writeKubeconfig(path, server, caFile, token, namespace string) error {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return err
	}
	// The CA is embedded so the file stays valid wherever it is copied.
	content := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: watchkeeper
  cluster:
    server: %s
    certificate-authority-data: %s
users:
- name: watchkeeper
  user:
    token: %s
contexts:
- name: watchkeeper
  context:
    cluster: watchkeeper
    user: watchkeeper
    namespace: %s
current-context: watchkeeper
`, server, base64.StdEncoding.EncodeToString(ca), token, namespace)
	return os.WriteFile(path, []byte(content), 0o600)
}

// freePorts asks the kernel for n free loopback ports, holding all of them open until each is known.
func freePorts(n int) ([]int, error) {
	listeners := make([]net.Listener, 0, n)
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
