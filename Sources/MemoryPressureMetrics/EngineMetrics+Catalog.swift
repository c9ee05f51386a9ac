extension EngineMetrics {
    /// Every metric an ``EngineMetrics`` with `labelPrefix` reports, in the order the README lists
    /// them, with the earlyoom, systemd-oomd or node_exporter figure to chart beside each.
    ///
    /// Sources of the analogues: node_exporter's meminfo collector (`node_memory_*_bytes` from
    /// `/proc/meminfo`), its pressure collector (`node_pressure_memory_*_seconds_total` from
    /// `/proc/pressure/memory`) and its vmstat collector, whose default field filter
    /// `^(oom_kill|pgpg|pswp|pg.*fault).*` exports `node_vmstat_oom_kill`
    /// (github.com/prometheus/node_exporter, collector/meminfo_linux.go, pressure_linux.go,
    /// vmstat_linux.go); earlyoom's README (github.com/rfjakob/earlyoom: "checks the amount of
    /// available memory and free swap … if both are below 10%, it will kill the largest process",
    /// and its `mem avail … swap free` status line); systemd-oomd.service(8) and oomd.conf(5)
    /// (kills a cgroup when PSI memory pressure exceeds `ManagedOOMMemoryPressureLimit=` for
    /// `…DurationSec=`, or swap use exceeds `SwapUsedLimit=`); the kernel's cgroup v2 document
    /// (Documentation/admin-guide/cgroup-v2.rst, `memory.events`: `high`, `oom_kill`).
    ///
    /// - Complexity: O(1)
    public static func catalog(labelPrefix: String = "mempressure") -> [MetricDescription] {
        let names = MetricNames(prefix: labelPrefix)
        return [
            MetricDescription(
                name: names.pressureLevel, kind: .gauge, labels: [], unit: "level",
                help: "Memory pressure level under the policy: 0 normal, 1 warning, 2 urgent, 3 critical.",
                analogue:
                    "node_exporter node_pressure_memory_waiting_seconds_total (PSI, rate()); systemd-oomd acts when "
                    + "PSI memory pressure exceeds ManagedOOMMemoryPressureLimit= (oomd.conf(5))"),
            MetricDescription(
                name: names.pressureLevelChanges, kind: .counter, labels: ["to"], unit: "events",
                help: "Pressure level changes, by the level entered (to: normal, warning, urgent, critical).",
                analogue: "no exported counterpart: systemd-oomd and earlyoom only log threshold crossings"),
            MetricDescription(
                name: names.memoryFree, kind: .gauge, labels: [], unit: "bytes",
                help: "Free memory: usable memory minus memory in use (negative when overcommitted).",
                analogue:
                    "node_exporter node_memory_MemAvailable_bytes; earlyoom's \"mem avail\" (it kills when it and "
                    + "free swap are both below 10% by default)"),
            MetricDescription(
                name: names.memoryUsed, kind: .gauge, labels: [], unit: "bytes",
                help: "Memory in use: the apps' footprints plus memory in use outside them.",
                analogue: "node_exporter node_memory_MemTotal_bytes - node_memory_MemAvailable_bytes"),
            MetricDescription(
                name: names.memoryLimit, kind: .gauge, labels: [], unit: "bytes",
                help: "Usable memory: physical memory minus the policy's reserve.",
                analogue: "node_exporter node_memory_MemTotal_bytes; a cgroup's memory.max"),
            MetricDescription(
                name: names.memoryWarnings, kind: .counter, labels: ["level"], unit: "events",
                help: "Memory warnings delivered to apps, one per app per warning, by warning level (1 or 2).",
                analogue:
                    "cgroup v2 memory.events \"high\" (reclaim pressure before a kill); earlyoom and systemd-oomd "
                    + "have no warning stage"),
            MetricDescription(
                name: names.kills, kind: .counter, labels: ["reason", "band"], unit: "events",
                help:
                    "Apps killed, by reason (pressure, memory_limit_fatal, memory_limit_soft) and policy band "
                    + "(none for a memory-limit kill and for systemd-oomd's memory-pressure rule).",
                analogue:
                    "node_exporter node_vmstat_oom_kill (the kernel's OOM kills); earlyoom's and systemd-oomd's "
                    + "kill log lines; cgroup v2 memory.events \"oom_kill\""),
            MetricDescription(
                name: names.freedBytes, kind: .counter, labels: ["by"], unit: "bytes",
                help:
                    "Bytes freed, by what freed them (kill, offscreenViews, purgeableCaches, handlerReleased, "
                    + "suspendedOffscreenViews).",
                analogue: "node_exporter node_memory_MemAvailable_bytes rising after a kill or purge"),
        ]
    }
}
