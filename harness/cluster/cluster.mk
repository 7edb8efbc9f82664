# make cluster-check: campaigns as Slurm job arrays on a one-node Slurm of this machine, and with
# GNU parallel (harness/cluster/README.md). As root; it installs Slurm where missing.
.PHONY: cluster-check
cluster-check: build
	@nice -n 10 bash harness/cluster/cluster_check.sh
