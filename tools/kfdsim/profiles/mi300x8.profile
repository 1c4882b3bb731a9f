# kfdsim builtin profile 'mi300x8': eight AMD Instinct MI300X (gfx942, SPX) on an OAM
# platform, one xGMI hive (every GPU linked to every other), on a 2-socket host
# Illustrative values: gpu_id, hive_id, PCI locations, firmware versions, serial
# numbers and unique_id are board specific; each GPU is the mi300x profile's.
# The facts that follow the kernel (kfd_crat.c, kfd_topology.c):
# - nodes 0 and 1 are the sockets' NUMA nodes (as in the mi300x profile);
#   GPUs 0-3 (nodes 2-5) hang off socket 0's root ports, GPUs 4-7 (nodes 6-9)
#   off socket 1's; generation_id counts the CPU topology and each GPU (9).
# - io_links of a GPU: first its direct PCIe link to its own NUMA node (weight
#   20, ENABLED), then one xGMI link (type 11, weight 15: one hop) to each
#   other GPU in node order; xGMI links are coherent and have atomics (flags 1).
# - a CPU node: its HT link to the other socket (weight 32, the SLIT distance),
#   then, the GPUs being large-BAR, a link back to each GPU on that socket
#   (PCIe from the CPU: NON_COHERENT, flags 3).
# - p2p_links: the kernel's indirect CPU-routed links, GPU -> the other socket
#   (the direct link plus the HT hop: weight 52, bandwidth the smaller of the
#   two, 0 for the HT link) and, large-BAR, that socket -> the GPU (flags 3).
# - simd_id_base advances by the previous GPU's 320 CUs (harvested included).
# - recommended_sdma_engine_id_mask (ABI 1.17+, printed on every link): on an
#   8-GPU MI300X hive the kernel's fixed table names one xGMI SDMA engine per
#   GPU pair (xGMI physical node id = GPU index here); links to CPUs get the
#   PCIe SDMA engines (0x3), indirect links 0 (copied before it is set).
[machine]
name "mi300x8"
description "eight AMD Instinct MI300X (gfx942, SPX: 304 CUs, 192 GiB HBM3 each) in one xGMI hive on a 2-socket host"
platform_oem 2314885706915061825
platform_id 71791775140929
platform_rev 2
generation_id 9
system_mem_limit 0

[cpu]
vendor_id AuthenticAMD
family 25
model 17
stepping 1
model_name "AMD EPYC 9654 96-Core Processor"
mhz 2400
microcode 0xa101148
cpuid_level 16
sockets 2
cores_per_socket 96
threads_per_core 1
numa_per_socket 1

[cpu cache 0]
level 1
type Data
size 32
ways 8
line_size 64
partitions 1
cores 1

[cpu cache 1]
level 1
type Instruction
size 32
ways 8
line_size 64
partitions 1
cores 1

[cpu cache 2]
level 2
type Unified
size 1024
ways 8
line_size 64
partitions 1
cores 1

[cpu cache 3]
level 3
type Unified
size 32768
ways 16
line_size 64
partitions 1
cores 8

[node 0]
gpu_id 0
name ""
cpu_cores_count 96
simd_count 0
mem_banks_count 1
caches_count 300
io_links_count 5
p2p_links_count 4
cpu_core_id_base 0
simd_id_base 0
max_waves_per_simd 0
lds_size_in_kb 0
gds_size_in_kb 0
num_gws 0
wave_front_size 0
array_count 0
simd_arrays_per_engine 0
cu_per_simd_array 0
simd_per_cu 0
max_slots_scratch_cu 0
gfx_target_version 0
vendor_id 0
device_id 0
location_id 0
domain 0
drm_render_minor 0
hive_id 0
num_sdma_engines 0
num_sdma_xgmi_engines 0
num_sdma_queues_per_engine 0
num_cp_queues 0
max_engine_clk_ccompute 3700

[node 0 mem_bank 0]
heap_type 0
size_in_bytes 824633720832
flags 0
width 64
mem_clk_max 3200

[node 0 cache 0]
repeat 96
processor_id_step 1
processor_id_low 0
level 1
size 32
cache_line_size 64
cache_lines_per_tag 1
association 8
latency 1
type 5
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 0 cache 96]
repeat 96
processor_id_step 1
processor_id_low 0
level 1
size 32
cache_line_size 64
cache_lines_per_tag 1
association 8
latency 1
type 6
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 0 cache 192]
repeat 96
processor_id_step 1
processor_id_low 0
level 2
size 1024
cache_line_size 64
cache_lines_per_tag 1
association 8
latency 4
type 7
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 0 cache 288]
repeat 12
processor_id_step 8
processor_id_low 0
level 3
size 32768
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 15
type 7
sibling_map 1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 0 io_link 0]
type 1
version_major 0
version_minor 0
node_from 0
node_to 1
weight 32
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 1

[node 0 io_link 1]
type 2
version_major 0
version_minor 0
node_from 0
node_to 2
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 3

[node 0 io_link 2]
type 2
version_major 0
version_minor 0
node_from 0
node_to 3
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 3

[node 0 io_link 3]
type 2
version_major 0
version_minor 0
node_from 0
node_to 4
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 3

[node 0 io_link 4]
type 2
version_major 0
version_minor 0
node_from 0
node_to 5
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 3

[node 0 p2p_link 0]
type 2
version_major 0
version_minor 0
node_from 0
node_to 6
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 3

[node 0 p2p_link 1]
type 2
version_major 0
version_minor 0
node_from 0
node_to 7
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 3

[node 0 p2p_link 2]
type 2
version_major 0
version_minor 0
node_from 0
node_to 8
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 3

[node 0 p2p_link 3]
type 2
version_major 0
version_minor 0
node_from 0
node_to 9
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 3

[node 1]
gpu_id 0
name ""
cpu_cores_count 96
simd_count 0
mem_banks_count 1
caches_count 300
io_links_count 5
p2p_links_count 4
cpu_core_id_base 96
simd_id_base 0
max_waves_per_simd 0
lds_size_in_kb 0
gds_size_in_kb 0
num_gws 0
wave_front_size 0
array_count 0
simd_arrays_per_engine 0
cu_per_simd_array 0
simd_per_cu 0
max_slots_scratch_cu 0
gfx_target_version 0
vendor_id 0
device_id 0
location_id 0
domain 0
drm_render_minor 0
hive_id 0
num_sdma_engines 0
num_sdma_xgmi_engines 0
num_sdma_queues_per_engine 0
num_cp_queues 0
max_engine_clk_ccompute 3700

[node 1 mem_bank 0]
heap_type 0
size_in_bytes 824633720832
flags 0
width 64
mem_clk_max 3200

[node 1 cache 0]
repeat 96
processor_id_step 1
processor_id_low 96
level 1
size 32
cache_line_size 64
cache_lines_per_tag 1
association 8
latency 1
type 5
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 1 cache 96]
repeat 96
processor_id_step 1
processor_id_low 96
level 1
size 32
cache_line_size 64
cache_lines_per_tag 1
association 8
latency 1
type 6
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 1 cache 192]
repeat 96
processor_id_step 1
processor_id_low 96
level 2
size 1024
cache_line_size 64
cache_lines_per_tag 1
association 8
latency 4
type 7
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 1 cache 288]
repeat 12
processor_id_step 8
processor_id_low 96
level 3
size 32768
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 15
type 7
sibling_map 1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 1 io_link 0]
type 1
version_major 0
version_minor 0
node_from 1
node_to 0
weight 32
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 1

[node 1 io_link 1]
type 2
version_major 0
version_minor 0
node_from 1
node_to 6
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 3

[node 1 io_link 2]
type 2
version_major 0
version_minor 0
node_from 1
node_to 7
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 3

[node 1 io_link 3]
type 2
version_major 0
version_minor 0
node_from 1
node_to 8
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 3

[node 1 io_link 4]
type 2
version_major 0
version_minor 0
node_from 1
node_to 9
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 3

[node 1 p2p_link 0]
type 2
version_major 0
version_minor 0
node_from 1
node_to 2
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 3

[node 1 p2p_link 1]
type 2
version_major 0
version_minor 0
node_from 1
node_to 3
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 3

[node 1 p2p_link 2]
type 2
version_major 0
version_minor 0
node_from 1
node_to 4
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 3

[node 1 p2p_link 3]
type 2
version_major 0
version_minor 0
node_from 1
node_to 5
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 3

[node 2]
gpu_id 7982
name "ip discovery"
cpu_cores_count 0
simd_count 1216
mem_banks_count 1
caches_count 313
io_links_count 8
p2p_links_count 1
cpu_core_id_base 0
simd_id_base 2147487744
max_waves_per_simd 8
lds_size_in_kb 64
gds_size_in_kb 0
num_gws 64
wave_front_size 64
array_count 32
simd_arrays_per_engine 1
cu_per_simd_array 10
simd_per_cu 4
max_slots_scratch_cu 32
gfx_target_version 90402
vendor_id 4098
device_id 29857
location_id 3072
domain 0
drm_render_minor 128
hive_id 5412599148415469400
num_sdma_engines 2
num_sdma_xgmi_engines 14
num_sdma_queues_per_engine 8
num_cp_queues 24
cwsr_size 23203840
ctl_stack_size 12288
max_engine_clk_fcompute 2100
local_mem_size 0
fw_version 155
capability 746037888
capability2 1
debug_prop 1495
sdma_fw_version 19
unique_id 5219046217345125890
num_xcc 8
max_engine_clk_ccompute 3700

[node 2 mem_bank 0]
heap_type 1
size_in_bytes 205822885888
flags 0
width 8192
mem_clk_max 1300

[node 2 cache 0]
repeat 304
processor_id_step 1
processor_id_low 2147487744
level 1
size 32
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 2 cache 304]
repeat 8
processor_id_step 38
processor_id_low 2147487744
level 2
size 4096
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 2 cache 312]
processor_id_low 2147487744
level 3
size 262144
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 2 io_link 0]
type 2
version_major 0
version_minor 0
node_from 2
node_to 0
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 1

[node 2 io_link 1]
type 11
version_major 0
version_minor 0
node_from 2
node_to 3
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16384
flags 1

[node 2 io_link 2]
type 11
version_major 0
version_minor 0
node_from 2
node_to 4
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4096
flags 1

[node 2 io_link 3]
type 11
version_major 0
version_minor 0
node_from 2
node_to 5
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4
flags 1

[node 2 io_link 4]
type 11
version_major 0
version_minor 0
node_from 2
node_to 6
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16
flags 1

[node 2 io_link 5]
type 11
version_major 0
version_minor 0
node_from 2
node_to 7
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 256
flags 1

[node 2 io_link 6]
type 11
version_major 0
version_minor 0
node_from 2
node_to 8
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 1024
flags 1

[node 2 io_link 7]
type 11
version_major 0
version_minor 0
node_from 2
node_to 9
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 64
flags 1

[node 2 p2p_link 0]
type 2
version_major 0
version_minor 0
node_from 2
node_to 1
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 1

[node 2 gpu]
lds_base 0x1000000000000
lds_limit 0x10000ffffffff
scratch_base 0x2000000000000
scratch_limit 0x20000ffffffff
gpuvm_base 0x10000
gpuvm_limit 0x7fffffffffff
doorbell_size 8
doorbell_slice 8192
soc15 1
eop_buffer_size 4096
ctl_stack_size 12288
cwsr_size 23203840
debug_memory_size 48640
large_bar 1
is_apu 0
xnack_capable 1
xnack_default 0
sched_policy 0
max_queues 255
num_gws 64
gpu_clock_hz 100000000
vram_size 205822885888
vram_reserved 16777216
gb_addr_config 0x2a114042
num_banks 0
num_ranks 0
num_tile_configs 32
num_macro_tile_configs 16

[node 2 drm]
render_minor 128
card_minor 0
version_major 3
version_minor 57
version_patch 0
pci_domain 0
pci_bus 12
pci_dev 0
pci_func 0
subsystem_vendor 0x1002
subsystem_device 0x74a1
device_id 0x74a1
chip_rev 0
external_rev 0x14
pci_rev 0x0
family 141
num_shader_engines 32
num_shader_arrays_per_engine 1
gpu_counter_freq 100000
max_engine_clock 2100000
max_memory_clock 1300000
min_engine_clock 500000
min_memory_clock 100000
cu_active_number 304
cu_ao_mask 0
cu_bitmap 0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0
enabled_rb_pipes_mask 0x0
num_rb_pipes 0
num_hw_gfx_contexts 8
ids_flags 0
virtual_address_offset 0x200000
virtual_address_max 0x800000000000
virtual_address_alignment 4096
pte_fragment_size 2097152
gart_page_size 4096
vram_type 6
vram_bit_width 8192
wave_front_size 64
num_shader_visible_vgprs 256
num_cu_per_sh 10
num_tcc_blocks 16
high_va_offset 0xffff800000000000
high_va_max 0xffffffffffe00000
vram_size 205822885888
visible_vram_size 205822885888
gtt_size 412316860416
product_name "AMD Instinct MI300X"
product_number "102-G30211-00"
serial_number "692334000381"
vbios_version "113-M3000100-102"
vram_vendor "hynix"
pcie_gen 5
pcie_width 16
power_average 140
power_cap 750
power_cap_max 750
temp_edge 0
temp_junction 40
temp_mem 35
temp_edge_crit 0
temp_junction_crit 110
temp_mem_crit 95
fan_rpm 0
fan_max_rpm 0
vddgfx 0
ras_features 239

[node 3]
gpu_id 46017
name "ip discovery"
cpu_cores_count 0
simd_count 1216
mem_banks_count 1
caches_count 313
io_links_count 8
p2p_links_count 1
cpu_core_id_base 0
simd_id_base 2147488064
max_waves_per_simd 8
lds_size_in_kb 64
gds_size_in_kb 0
num_gws 64
wave_front_size 64
array_count 32
simd_arrays_per_engine 1
cu_per_simd_array 10
simd_per_cu 4
max_slots_scratch_cu 32
gfx_target_version 90402
vendor_id 4098
device_id 29857
location_id 8704
domain 0
drm_render_minor 129
hive_id 5412599148415469400
num_sdma_engines 2
num_sdma_xgmi_engines 14
num_sdma_queues_per_engine 8
num_cp_queues 24
cwsr_size 23203840
ctl_stack_size 12288
max_engine_clk_fcompute 2100
local_mem_size 0
fw_version 155
capability 746037888
capability2 1
debug_prop 1495
sdma_fw_version 19
unique_id 5219046217361903362
num_xcc 8
max_engine_clk_ccompute 3700

[node 3 mem_bank 0]
heap_type 1
size_in_bytes 205822885888
flags 0
width 8192
mem_clk_max 1300

[node 3 cache 0]
repeat 304
processor_id_step 1
processor_id_low 2147488064
level 1
size 32
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 3 cache 304]
repeat 8
processor_id_step 38
processor_id_low 2147488064
level 2
size 4096
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 3 cache 312]
processor_id_low 2147488064
level 3
size 262144
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 3 io_link 0]
type 2
version_major 0
version_minor 0
node_from 3
node_to 0
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 1

[node 3 io_link 1]
type 11
version_major 0
version_minor 0
node_from 3
node_to 2
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16384
flags 1

[node 3 io_link 2]
type 11
version_major 0
version_minor 0
node_from 3
node_to 4
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4
flags 1

[node 3 io_link 3]
type 11
version_major 0
version_minor 0
node_from 3
node_to 5
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 1024
flags 1

[node 3 io_link 4]
type 11
version_major 0
version_minor 0
node_from 3
node_to 6
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 256
flags 1

[node 3 io_link 5]
type 11
version_major 0
version_minor 0
node_from 3
node_to 7
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16
flags 1

[node 3 io_link 6]
type 11
version_major 0
version_minor 0
node_from 3
node_to 8
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 64
flags 1

[node 3 io_link 7]
type 11
version_major 0
version_minor 0
node_from 3
node_to 9
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4096
flags 1

[node 3 p2p_link 0]
type 2
version_major 0
version_minor 0
node_from 3
node_to 1
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 1

[node 3 gpu]
lds_base 0x1000000000000
lds_limit 0x10000ffffffff
scratch_base 0x2000000000000
scratch_limit 0x20000ffffffff
gpuvm_base 0x10000
gpuvm_limit 0x7fffffffffff
doorbell_size 8
doorbell_slice 8192
soc15 1
eop_buffer_size 4096
ctl_stack_size 12288
cwsr_size 23203840
debug_memory_size 48640
large_bar 1
is_apu 0
xnack_capable 1
xnack_default 0
sched_policy 0
max_queues 255
num_gws 64
gpu_clock_hz 100000000
vram_size 205822885888
vram_reserved 16777216
gb_addr_config 0x2a114042
num_banks 0
num_ranks 0
num_tile_configs 32
num_macro_tile_configs 16

[node 3 drm]
render_minor 129
card_minor 1
version_major 3
version_minor 57
version_patch 0
pci_domain 0
pci_bus 34
pci_dev 0
pci_func 0
subsystem_vendor 0x1002
subsystem_device 0x74a1
device_id 0x74a1
chip_rev 0
external_rev 0x14
pci_rev 0x0
family 141
num_shader_engines 32
num_shader_arrays_per_engine 1
gpu_counter_freq 100000
max_engine_clock 2100000
max_memory_clock 1300000
min_engine_clock 500000
min_memory_clock 100000
cu_active_number 304
cu_ao_mask 0
cu_bitmap 0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0
enabled_rb_pipes_mask 0x0
num_rb_pipes 0
num_hw_gfx_contexts 8
ids_flags 0
virtual_address_offset 0x200000
virtual_address_max 0x800000000000
virtual_address_alignment 4096
pte_fragment_size 2097152
gart_page_size 4096
vram_type 6
vram_bit_width 8192
wave_front_size 64
num_shader_visible_vgprs 256
num_cu_per_sh 10
num_tcc_blocks 16
high_va_offset 0xffff800000000000
high_va_max 0xffffffffffe00000
vram_size 205822885888
visible_vram_size 205822885888
gtt_size 412316860416
product_name "AMD Instinct MI300X"
product_number "102-G30211-00"
serial_number "692334000398"
vbios_version "113-M3000100-102"
vram_vendor "hynix"
pcie_gen 5
pcie_width 16
power_average 140
power_cap 750
power_cap_max 750
temp_edge 0
temp_junction 40
temp_mem 35
temp_edge_crit 0
temp_junction_crit 110
temp_mem_crit 95
fan_rpm 0
fan_max_rpm 0
vddgfx 0
ras_features 239

[node 4]
gpu_id 25815
name "ip discovery"
cpu_cores_count 0
simd_count 1216
mem_banks_count 1
caches_count 313
io_links_count 8
p2p_links_count 1
cpu_core_id_base 0
simd_id_base 2147488384
max_waves_per_simd 8
lds_size_in_kb 64
gds_size_in_kb 0
num_gws 64
wave_front_size 64
array_count 32
simd_arrays_per_engine 1
cu_per_simd_array 10
simd_per_cu 4
max_slots_scratch_cu 32
gfx_target_version 90402
vendor_id 4098
device_id 29857
location_id 14336
domain 0
drm_render_minor 130
hive_id 5412599148415469400
num_sdma_engines 2
num_sdma_xgmi_engines 14
num_sdma_queues_per_engine 8
num_cp_queues 24
cwsr_size 23203840
ctl_stack_size 12288
max_engine_clk_fcompute 2100
local_mem_size 0
fw_version 155
capability 746037888
capability2 1
debug_prop 1495
sdma_fw_version 19
unique_id 5219046217378680834
num_xcc 8
max_engine_clk_ccompute 3700

[node 4 mem_bank 0]
heap_type 1
size_in_bytes 205822885888
flags 0
width 8192
mem_clk_max 1300

[node 4 cache 0]
repeat 304
processor_id_step 1
processor_id_low 2147488384
level 1
size 32
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 4 cache 304]
repeat 8
processor_id_step 38
processor_id_low 2147488384
level 2
size 4096
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 4 cache 312]
processor_id_low 2147488384
level 3
size 262144
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 4 io_link 0]
type 2
version_major 0
version_minor 0
node_from 4
node_to 0
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 1

[node 4 io_link 1]
type 11
version_major 0
version_minor 0
node_from 4
node_to 2
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 1024
flags 1

[node 4 io_link 2]
type 11
version_major 0
version_minor 0
node_from 4
node_to 3
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4
flags 1

[node 4 io_link 3]
type 11
version_major 0
version_minor 0
node_from 4
node_to 5
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4096
flags 1

[node 4 io_link 4]
type 11
version_major 0
version_minor 0
node_from 4
node_to 6
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16384
flags 1

[node 4 io_link 5]
type 11
version_major 0
version_minor 0
node_from 4
node_to 7
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 64
flags 1

[node 4 io_link 6]
type 11
version_major 0
version_minor 0
node_from 4
node_to 8
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16
flags 1

[node 4 io_link 7]
type 11
version_major 0
version_minor 0
node_from 4
node_to 9
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 256
flags 1

[node 4 p2p_link 0]
type 2
version_major 0
version_minor 0
node_from 4
node_to 1
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 1

[node 4 gpu]
lds_base 0x1000000000000
lds_limit 0x10000ffffffff
scratch_base 0x2000000000000
scratch_limit 0x20000ffffffff
gpuvm_base 0x10000
gpuvm_limit 0x7fffffffffff
doorbell_size 8
doorbell_slice 8192
soc15 1
eop_buffer_size 4096
ctl_stack_size 12288
cwsr_size 23203840
debug_memory_size 48640
large_bar 1
is_apu 0
xnack_capable 1
xnack_default 0
sched_policy 0
max_queues 255
num_gws 64
gpu_clock_hz 100000000
vram_size 205822885888
vram_reserved 16777216
gb_addr_config 0x2a114042
num_banks 0
num_ranks 0
num_tile_configs 32
num_macro_tile_configs 16

[node 4 drm]
render_minor 130
card_minor 2
version_major 3
version_minor 57
version_patch 0
pci_domain 0
pci_bus 56
pci_dev 0
pci_func 0
subsystem_vendor 0x1002
subsystem_device 0x74a1
device_id 0x74a1
chip_rev 0
external_rev 0x14
pci_rev 0x0
family 141
num_shader_engines 32
num_shader_arrays_per_engine 1
gpu_counter_freq 100000
max_engine_clock 2100000
max_memory_clock 1300000
min_engine_clock 500000
min_memory_clock 100000
cu_active_number 304
cu_ao_mask 0
cu_bitmap 0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0
enabled_rb_pipes_mask 0x0
num_rb_pipes 0
num_hw_gfx_contexts 8
ids_flags 0
virtual_address_offset 0x200000
virtual_address_max 0x800000000000
virtual_address_alignment 4096
pte_fragment_size 2097152
gart_page_size 4096
vram_type 6
vram_bit_width 8192
wave_front_size 64
num_shader_visible_vgprs 256
num_cu_per_sh 10
num_tcc_blocks 16
high_va_offset 0xffff800000000000
high_va_max 0xffffffffffe00000
vram_size 205822885888
visible_vram_size 205822885888
gtt_size 412316860416
product_name "AMD Instinct MI300X"
product_number "102-G30211-00"
serial_number "692334000415"
vbios_version "113-M3000100-102"
vram_vendor "hynix"
pcie_gen 5
pcie_width 16
power_average 140
power_cap 750
power_cap_max 750
temp_edge 0
temp_junction 40
temp_mem 35
temp_edge_crit 0
temp_junction_crit 110
temp_mem_crit 95
fan_rpm 0
fan_max_rpm 0
vddgfx 0
ras_features 239

[node 5]
gpu_id 10901
name "ip discovery"
cpu_cores_count 0
simd_count 1216
mem_banks_count 1
caches_count 313
io_links_count 8
p2p_links_count 1
cpu_core_id_base 0
simd_id_base 2147488704
max_waves_per_simd 8
lds_size_in_kb 64
gds_size_in_kb 0
num_gws 64
wave_front_size 64
array_count 32
simd_arrays_per_engine 1
cu_per_simd_array 10
simd_per_cu 4
max_slots_scratch_cu 32
gfx_target_version 90402
vendor_id 4098
device_id 29857
location_id 23552
domain 0
drm_render_minor 131
hive_id 5412599148415469400
num_sdma_engines 2
num_sdma_xgmi_engines 14
num_sdma_queues_per_engine 8
num_cp_queues 24
cwsr_size 23203840
ctl_stack_size 12288
max_engine_clk_fcompute 2100
local_mem_size 0
fw_version 155
capability 746037888
capability2 1
debug_prop 1495
sdma_fw_version 19
unique_id 5219046217395458306
num_xcc 8
max_engine_clk_ccompute 3700

[node 5 mem_bank 0]
heap_type 1
size_in_bytes 205822885888
flags 0
width 8192
mem_clk_max 1300

[node 5 cache 0]
repeat 304
processor_id_step 1
processor_id_low 2147488704
level 1
size 32
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 5 cache 304]
repeat 8
processor_id_step 38
processor_id_low 2147488704
level 2
size 4096
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 5 cache 312]
processor_id_low 2147488704
level 3
size 262144
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 5 io_link 0]
type 2
version_major 0
version_minor 0
node_from 5
node_to 0
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 1

[node 5 io_link 1]
type 11
version_major 0
version_minor 0
node_from 5
node_to 2
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4
flags 1

[node 5 io_link 2]
type 11
version_major 0
version_minor 0
node_from 5
node_to 3
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4096
flags 1

[node 5 io_link 3]
type 11
version_major 0
version_minor 0
node_from 5
node_to 4
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 1024
flags 1

[node 5 io_link 4]
type 11
version_major 0
version_minor 0
node_from 5
node_to 6
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 64
flags 1

[node 5 io_link 5]
type 11
version_major 0
version_minor 0
node_from 5
node_to 7
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16384
flags 1

[node 5 io_link 6]
type 11
version_major 0
version_minor 0
node_from 5
node_to 8
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 256
flags 1

[node 5 io_link 7]
type 11
version_major 0
version_minor 0
node_from 5
node_to 9
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16
flags 1

[node 5 p2p_link 0]
type 2
version_major 0
version_minor 0
node_from 5
node_to 1
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 1

[node 5 gpu]
lds_base 0x1000000000000
lds_limit 0x10000ffffffff
scratch_base 0x2000000000000
scratch_limit 0x20000ffffffff
gpuvm_base 0x10000
gpuvm_limit 0x7fffffffffff
doorbell_size 8
doorbell_slice 8192
soc15 1
eop_buffer_size 4096
ctl_stack_size 12288
cwsr_size 23203840
debug_memory_size 48640
large_bar 1
is_apu 0
xnack_capable 1
xnack_default 0
sched_policy 0
max_queues 255
num_gws 64
gpu_clock_hz 100000000
vram_size 205822885888
vram_reserved 16777216
gb_addr_config 0x2a114042
num_banks 0
num_ranks 0
num_tile_configs 32
num_macro_tile_configs 16

[node 5 drm]
render_minor 131
card_minor 3
version_major 3
version_minor 57
version_patch 0
pci_domain 0
pci_bus 92
pci_dev 0
pci_func 0
subsystem_vendor 0x1002
subsystem_device 0x74a1
device_id 0x74a1
chip_rev 0
external_rev 0x14
pci_rev 0x0
family 141
num_shader_engines 32
num_shader_arrays_per_engine 1
gpu_counter_freq 100000
max_engine_clock 2100000
max_memory_clock 1300000
min_engine_clock 500000
min_memory_clock 100000
cu_active_number 304
cu_ao_mask 0
cu_bitmap 0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0
enabled_rb_pipes_mask 0x0
num_rb_pipes 0
num_hw_gfx_contexts 8
ids_flags 0
virtual_address_offset 0x200000
virtual_address_max 0x800000000000
virtual_address_alignment 4096
pte_fragment_size 2097152
gart_page_size 4096
vram_type 6
vram_bit_width 8192
wave_front_size 64
num_shader_visible_vgprs 256
num_cu_per_sh 10
num_tcc_blocks 16
high_va_offset 0xffff800000000000
high_va_max 0xffffffffffe00000
vram_size 205822885888
visible_vram_size 205822885888
gtt_size 412316860416
product_name "AMD Instinct MI300X"
product_number "102-G30211-00"
serial_number "692334000432"
vbios_version "113-M3000100-102"
vram_vendor "hynix"
pcie_gen 5
pcie_width 16
power_average 140
power_cap 750
power_cap_max 750
temp_edge 0
temp_junction 40
temp_mem 35
temp_edge_crit 0
temp_junction_crit 110
temp_mem_crit 95
fan_rpm 0
fan_max_rpm 0
vddgfx 0
ras_features 239

[node 6]
gpu_id 53515
name "ip discovery"
cpu_cores_count 0
simd_count 1216
mem_banks_count 1
caches_count 313
io_links_count 8
p2p_links_count 1
cpu_core_id_base 0
simd_id_base 2147489024
max_waves_per_simd 8
lds_size_in_kb 64
gds_size_in_kb 0
num_gws 64
wave_front_size 64
array_count 32
simd_arrays_per_engine 1
cu_per_simd_array 10
simd_per_cu 4
max_slots_scratch_cu 32
gfx_target_version 90402
vendor_id 4098
device_id 29857
location_id 40704
domain 0
drm_render_minor 132
hive_id 5412599148415469400
num_sdma_engines 2
num_sdma_xgmi_engines 14
num_sdma_queues_per_engine 8
num_cp_queues 24
cwsr_size 23203840
ctl_stack_size 12288
max_engine_clk_fcompute 2100
local_mem_size 0
fw_version 155
capability 746037888
capability2 1
debug_prop 1495
sdma_fw_version 19
unique_id 5219046217412235778
num_xcc 8
max_engine_clk_ccompute 3700

[node 6 mem_bank 0]
heap_type 1
size_in_bytes 205822885888
flags 0
width 8192
mem_clk_max 1300

[node 6 cache 0]
repeat 304
processor_id_step 1
processor_id_low 2147489024
level 1
size 32
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 6 cache 304]
repeat 8
processor_id_step 38
processor_id_low 2147489024
level 2
size 4096
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 6 cache 312]
processor_id_low 2147489024
level 3
size 262144
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 6 io_link 0]
type 2
version_major 0
version_minor 0
node_from 6
node_to 1
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 1

[node 6 io_link 1]
type 11
version_major 0
version_minor 0
node_from 6
node_to 2
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16
flags 1

[node 6 io_link 2]
type 11
version_major 0
version_minor 0
node_from 6
node_to 3
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 256
flags 1

[node 6 io_link 3]
type 11
version_major 0
version_minor 0
node_from 6
node_to 4
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16384
flags 1

[node 6 io_link 4]
type 11
version_major 0
version_minor 0
node_from 6
node_to 5
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 64
flags 1

[node 6 io_link 5]
type 11
version_major 0
version_minor 0
node_from 6
node_to 7
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 1024
flags 1

[node 6 io_link 6]
type 11
version_major 0
version_minor 0
node_from 6
node_to 8
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4096
flags 1

[node 6 io_link 7]
type 11
version_major 0
version_minor 0
node_from 6
node_to 9
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4
flags 1

[node 6 p2p_link 0]
type 2
version_major 0
version_minor 0
node_from 6
node_to 0
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 1

[node 6 gpu]
lds_base 0x1000000000000
lds_limit 0x10000ffffffff
scratch_base 0x2000000000000
scratch_limit 0x20000ffffffff
gpuvm_base 0x10000
gpuvm_limit 0x7fffffffffff
doorbell_size 8
doorbell_slice 8192
soc15 1
eop_buffer_size 4096
ctl_stack_size 12288
cwsr_size 23203840
debug_memory_size 48640
large_bar 1
is_apu 0
xnack_capable 1
xnack_default 0
sched_policy 0
max_queues 255
num_gws 64
gpu_clock_hz 100000000
vram_size 205822885888
vram_reserved 16777216
gb_addr_config 0x2a114042
num_banks 0
num_ranks 0
num_tile_configs 32
num_macro_tile_configs 16

[node 6 drm]
render_minor 132
card_minor 4
version_major 3
version_minor 57
version_patch 0
pci_domain 0
pci_bus 159
pci_dev 0
pci_func 0
subsystem_vendor 0x1002
subsystem_device 0x74a1
device_id 0x74a1
chip_rev 0
external_rev 0x14
pci_rev 0x0
family 141
num_shader_engines 32
num_shader_arrays_per_engine 1
gpu_counter_freq 100000
max_engine_clock 2100000
max_memory_clock 1300000
min_engine_clock 500000
min_memory_clock 100000
cu_active_number 304
cu_ao_mask 0
cu_bitmap 0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0
enabled_rb_pipes_mask 0x0
num_rb_pipes 0
num_hw_gfx_contexts 8
ids_flags 0
virtual_address_offset 0x200000
virtual_address_max 0x800000000000
virtual_address_alignment 4096
pte_fragment_size 2097152
gart_page_size 4096
vram_type 6
vram_bit_width 8192
wave_front_size 64
num_shader_visible_vgprs 256
num_cu_per_sh 10
num_tcc_blocks 16
high_va_offset 0xffff800000000000
high_va_max 0xffffffffffe00000
vram_size 205822885888
visible_vram_size 205822885888
gtt_size 412316860416
product_name "AMD Instinct MI300X"
product_number "102-G30211-00"
serial_number "692334000449"
vbios_version "113-M3000100-102"
vram_vendor "hynix"
pcie_gen 5
pcie_width 16
power_average 140
power_cap 750
power_cap_max 750
temp_edge 0
temp_junction 40
temp_mem 35
temp_edge_crit 0
temp_junction_crit 110
temp_mem_crit 95
fan_rpm 0
fan_max_rpm 0
vddgfx 0
ras_features 239

[node 7]
gpu_id 36422
name "ip discovery"
cpu_cores_count 0
simd_count 1216
mem_banks_count 1
caches_count 313
io_links_count 8
p2p_links_count 1
cpu_core_id_base 0
simd_id_base 2147489344
max_waves_per_simd 8
lds_size_in_kb 64
gds_size_in_kb 0
num_gws 64
wave_front_size 64
array_count 32
simd_arrays_per_engine 1
cu_per_simd_array 10
simd_per_cu 4
max_slots_scratch_cu 32
gfx_target_version 90402
vendor_id 4098
device_id 29857
location_id 44800
domain 0
drm_render_minor 133
hive_id 5412599148415469400
num_sdma_engines 2
num_sdma_xgmi_engines 14
num_sdma_queues_per_engine 8
num_cp_queues 24
cwsr_size 23203840
ctl_stack_size 12288
max_engine_clk_fcompute 2100
local_mem_size 0
fw_version 155
capability 746037888
capability2 1
debug_prop 1495
sdma_fw_version 19
unique_id 5219046217429013250
num_xcc 8
max_engine_clk_ccompute 3700

[node 7 mem_bank 0]
heap_type 1
size_in_bytes 205822885888
flags 0
width 8192
mem_clk_max 1300

[node 7 cache 0]
repeat 304
processor_id_step 1
processor_id_low 2147489344
level 1
size 32
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 7 cache 304]
repeat 8
processor_id_step 38
processor_id_low 2147489344
level 2
size 4096
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 7 cache 312]
processor_id_low 2147489344
level 3
size 262144
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 7 io_link 0]
type 2
version_major 0
version_minor 0
node_from 7
node_to 1
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 1

[node 7 io_link 1]
type 11
version_major 0
version_minor 0
node_from 7
node_to 2
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 256
flags 1

[node 7 io_link 2]
type 11
version_major 0
version_minor 0
node_from 7
node_to 3
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16
flags 1

[node 7 io_link 3]
type 11
version_major 0
version_minor 0
node_from 7
node_to 4
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 64
flags 1

[node 7 io_link 4]
type 11
version_major 0
version_minor 0
node_from 7
node_to 5
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16384
flags 1

[node 7 io_link 5]
type 11
version_major 0
version_minor 0
node_from 7
node_to 6
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4096
flags 1

[node 7 io_link 6]
type 11
version_major 0
version_minor 0
node_from 7
node_to 8
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4
flags 1

[node 7 io_link 7]
type 11
version_major 0
version_minor 0
node_from 7
node_to 9
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 1024
flags 1

[node 7 p2p_link 0]
type 2
version_major 0
version_minor 0
node_from 7
node_to 0
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 1

[node 7 gpu]
lds_base 0x1000000000000
lds_limit 0x10000ffffffff
scratch_base 0x2000000000000
scratch_limit 0x20000ffffffff
gpuvm_base 0x10000
gpuvm_limit 0x7fffffffffff
doorbell_size 8
doorbell_slice 8192
soc15 1
eop_buffer_size 4096
ctl_stack_size 12288
cwsr_size 23203840
debug_memory_size 48640
large_bar 1
is_apu 0
xnack_capable 1
xnack_default 0
sched_policy 0
max_queues 255
num_gws 64
gpu_clock_hz 100000000
vram_size 205822885888
vram_reserved 16777216
gb_addr_config 0x2a114042
num_banks 0
num_ranks 0
num_tile_configs 32
num_macro_tile_configs 16

[node 7 drm]
render_minor 133
card_minor 5
version_major 3
version_minor 57
version_patch 0
pci_domain 0
pci_bus 175
pci_dev 0
pci_func 0
subsystem_vendor 0x1002
subsystem_device 0x74a1
device_id 0x74a1
chip_rev 0
external_rev 0x14
pci_rev 0x0
family 141
num_shader_engines 32
num_shader_arrays_per_engine 1
gpu_counter_freq 100000
max_engine_clock 2100000
max_memory_clock 1300000
min_engine_clock 500000
min_memory_clock 100000
cu_active_number 304
cu_ao_mask 0
cu_bitmap 0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0
enabled_rb_pipes_mask 0x0
num_rb_pipes 0
num_hw_gfx_contexts 8
ids_flags 0
virtual_address_offset 0x200000
virtual_address_max 0x800000000000
virtual_address_alignment 4096
pte_fragment_size 2097152
gart_page_size 4096
vram_type 6
vram_bit_width 8192
wave_front_size 64
num_shader_visible_vgprs 256
num_cu_per_sh 10
num_tcc_blocks 16
high_va_offset 0xffff800000000000
high_va_max 0xffffffffffe00000
vram_size 205822885888
visible_vram_size 205822885888
gtt_size 412316860416
product_name "AMD Instinct MI300X"
product_number "102-G30211-00"
serial_number "692334000466"
vbios_version "113-M3000100-102"
vram_vendor "hynix"
pcie_gen 5
pcie_width 16
power_average 140
power_cap 750
power_cap_max 750
temp_edge 0
temp_junction 40
temp_mem 35
temp_edge_crit 0
temp_junction_crit 110
temp_mem_crit 95
fan_rpm 0
fan_max_rpm 0
vddgfx 0
ras_features 239

[node 8]
gpu_id 23667
name "ip discovery"
cpu_cores_count 0
simd_count 1216
mem_banks_count 1
caches_count 313
io_links_count 8
p2p_links_count 1
cpu_core_id_base 0
simd_id_base 2147489664
max_waves_per_simd 8
lds_size_in_kb 64
gds_size_in_kb 0
num_gws 64
wave_front_size 64
array_count 32
simd_arrays_per_engine 1
cu_per_simd_array 10
simd_per_cu 4
max_slots_scratch_cu 32
gfx_target_version 90402
vendor_id 4098
device_id 29857
location_id 48896
domain 0
drm_render_minor 134
hive_id 5412599148415469400
num_sdma_engines 2
num_sdma_xgmi_engines 14
num_sdma_queues_per_engine 8
num_cp_queues 24
cwsr_size 23203840
ctl_stack_size 12288
max_engine_clk_fcompute 2100
local_mem_size 0
fw_version 155
capability 746037888
capability2 1
debug_prop 1495
sdma_fw_version 19
unique_id 5219046217445790722
num_xcc 8
max_engine_clk_ccompute 3700

[node 8 mem_bank 0]
heap_type 1
size_in_bytes 205822885888
flags 0
width 8192
mem_clk_max 1300

[node 8 cache 0]
repeat 304
processor_id_step 1
processor_id_low 2147489664
level 1
size 32
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 8 cache 304]
repeat 8
processor_id_step 38
processor_id_low 2147489664
level 2
size 4096
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 8 cache 312]
processor_id_low 2147489664
level 3
size 262144
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 8 io_link 0]
type 2
version_major 0
version_minor 0
node_from 8
node_to 1
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 1

[node 8 io_link 1]
type 11
version_major 0
version_minor 0
node_from 8
node_to 2
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 1024
flags 1

[node 8 io_link 2]
type 11
version_major 0
version_minor 0
node_from 8
node_to 3
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 64
flags 1

[node 8 io_link 3]
type 11
version_major 0
version_minor 0
node_from 8
node_to 4
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16
flags 1

[node 8 io_link 4]
type 11
version_major 0
version_minor 0
node_from 8
node_to 5
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 256
flags 1

[node 8 io_link 5]
type 11
version_major 0
version_minor 0
node_from 8
node_to 6
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4096
flags 1

[node 8 io_link 6]
type 11
version_major 0
version_minor 0
node_from 8
node_to 7
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4
flags 1

[node 8 io_link 7]
type 11
version_major 0
version_minor 0
node_from 8
node_to 9
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16384
flags 1

[node 8 p2p_link 0]
type 2
version_major 0
version_minor 0
node_from 8
node_to 0
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 1

[node 8 gpu]
lds_base 0x1000000000000
lds_limit 0x10000ffffffff
scratch_base 0x2000000000000
scratch_limit 0x20000ffffffff
gpuvm_base 0x10000
gpuvm_limit 0x7fffffffffff
doorbell_size 8
doorbell_slice 8192
soc15 1
eop_buffer_size 4096
ctl_stack_size 12288
cwsr_size 23203840
debug_memory_size 48640
large_bar 1
is_apu 0
xnack_capable 1
xnack_default 0
sched_policy 0
max_queues 255
num_gws 64
gpu_clock_hz 100000000
vram_size 205822885888
vram_reserved 16777216
gb_addr_config 0x2a114042
num_banks 0
num_ranks 0
num_tile_configs 32
num_macro_tile_configs 16

[node 8 drm]
render_minor 134
card_minor 6
version_major 3
version_minor 57
version_patch 0
pci_domain 0
pci_bus 191
pci_dev 0
pci_func 0
subsystem_vendor 0x1002
subsystem_device 0x74a1
device_id 0x74a1
chip_rev 0
external_rev 0x14
pci_rev 0x0
family 141
num_shader_engines 32
num_shader_arrays_per_engine 1
gpu_counter_freq 100000
max_engine_clock 2100000
max_memory_clock 1300000
min_engine_clock 500000
min_memory_clock 100000
cu_active_number 304
cu_ao_mask 0
cu_bitmap 0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0
enabled_rb_pipes_mask 0x0
num_rb_pipes 0
num_hw_gfx_contexts 8
ids_flags 0
virtual_address_offset 0x200000
virtual_address_max 0x800000000000
virtual_address_alignment 4096
pte_fragment_size 2097152
gart_page_size 4096
vram_type 6
vram_bit_width 8192
wave_front_size 64
num_shader_visible_vgprs 256
num_cu_per_sh 10
num_tcc_blocks 16
high_va_offset 0xffff800000000000
high_va_max 0xffffffffffe00000
vram_size 205822885888
visible_vram_size 205822885888
gtt_size 412316860416
product_name "AMD Instinct MI300X"
product_number "102-G30211-00"
serial_number "692334000483"
vbios_version "113-M3000100-102"
vram_vendor "hynix"
pcie_gen 5
pcie_width 16
power_average 140
power_cap 750
power_cap_max 750
temp_edge 0
temp_junction 40
temp_mem 35
temp_edge_crit 0
temp_junction_crit 110
temp_mem_crit 95
fan_rpm 0
fan_max_rpm 0
vddgfx 0
ras_features 239

[node 9]
gpu_id 63400
name "ip discovery"
cpu_cores_count 0
simd_count 1216
mem_banks_count 1
caches_count 313
io_links_count 8
p2p_links_count 1
cpu_core_id_base 0
simd_id_base 2147489984
max_waves_per_simd 8
lds_size_in_kb 64
gds_size_in_kb 0
num_gws 64
wave_front_size 64
array_count 32
simd_arrays_per_engine 1
cu_per_simd_array 10
simd_per_cu 4
max_slots_scratch_cu 32
gfx_target_version 90402
vendor_id 4098
device_id 29857
location_id 57088
domain 0
drm_render_minor 135
hive_id 5412599148415469400
num_sdma_engines 2
num_sdma_xgmi_engines 14
num_sdma_queues_per_engine 8
num_cp_queues 24
cwsr_size 23203840
ctl_stack_size 12288
max_engine_clk_fcompute 2100
local_mem_size 0
fw_version 155
capability 746037888
capability2 1
debug_prop 1495
sdma_fw_version 19
unique_id 5219046217462568194
num_xcc 8
max_engine_clk_ccompute 3700

[node 9 mem_bank 0]
heap_type 1
size_in_bytes 205822885888
flags 0
width 8192
mem_clk_max 1300

[node 9 cache 0]
repeat 304
processor_id_step 1
processor_id_low 2147489984
level 1
size 32
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 9 cache 304]
repeat 8
processor_id_step 38
processor_id_low 2147489984
level 2
size 4096
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 9 cache 312]
processor_id_low 2147489984
level 3
size 262144
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 9 io_link 0]
type 2
version_major 0
version_minor 0
node_from 9
node_to 1
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 64000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 3
flags 1

[node 9 io_link 1]
type 11
version_major 0
version_minor 0
node_from 9
node_to 2
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 64
flags 1

[node 9 io_link 2]
type 11
version_major 0
version_minor 0
node_from 9
node_to 3
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4096
flags 1

[node 9 io_link 3]
type 11
version_major 0
version_minor 0
node_from 9
node_to 4
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 256
flags 1

[node 9 io_link 4]
type 11
version_major 0
version_minor 0
node_from 9
node_to 5
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16
flags 1

[node 9 io_link 5]
type 11
version_major 0
version_minor 0
node_from 9
node_to 6
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 4
flags 1

[node 9 io_link 6]
type 11
version_major 0
version_minor 0
node_from 9
node_to 7
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 1024
flags 1

[node 9 io_link 7]
type 11
version_major 0
version_minor 0
node_from 9
node_to 8
weight 15
min_latency 0
max_latency 0
min_bandwidth 50000
max_bandwidth 50000
recommended_transfer_size 0
recommended_sdma_engine_id_mask 16384
flags 1

[node 9 p2p_link 0]
type 2
version_major 0
version_minor 0
node_from 9
node_to 0
weight 52
min_latency 0
max_latency 0
min_bandwidth 0
max_bandwidth 0
recommended_transfer_size 0
recommended_sdma_engine_id_mask 0
flags 1

[node 9 gpu]
lds_base 0x1000000000000
lds_limit 0x10000ffffffff
scratch_base 0x2000000000000
scratch_limit 0x20000ffffffff
gpuvm_base 0x10000
gpuvm_limit 0x7fffffffffff
doorbell_size 8
doorbell_slice 8192
soc15 1
eop_buffer_size 4096
ctl_stack_size 12288
cwsr_size 23203840
debug_memory_size 48640
large_bar 1
is_apu 0
xnack_capable 1
xnack_default 0
sched_policy 0
max_queues 255
num_gws 64
gpu_clock_hz 100000000
vram_size 205822885888
vram_reserved 16777216
gb_addr_config 0x2a114042
num_banks 0
num_ranks 0
num_tile_configs 32
num_macro_tile_configs 16

[node 9 drm]
render_minor 135
card_minor 7
version_major 3
version_minor 57
version_patch 0
pci_domain 0
pci_bus 223
pci_dev 0
pci_func 0
subsystem_vendor 0x1002
subsystem_device 0x74a1
device_id 0x74a1
chip_rev 0
external_rev 0x14
pci_rev 0x0
family 141
num_shader_engines 32
num_shader_arrays_per_engine 1
gpu_counter_freq 100000
max_engine_clock 2100000
max_memory_clock 1300000
min_engine_clock 500000
min_memory_clock 100000
cu_active_number 304
cu_ao_mask 0
cu_bitmap 0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0,0x3ff,0x0,0x0,0x0
enabled_rb_pipes_mask 0x0
num_rb_pipes 0
num_hw_gfx_contexts 8
ids_flags 0
virtual_address_offset 0x200000
virtual_address_max 0x800000000000
virtual_address_alignment 4096
pte_fragment_size 2097152
gart_page_size 4096
vram_type 6
vram_bit_width 8192
wave_front_size 64
num_shader_visible_vgprs 256
num_cu_per_sh 10
num_tcc_blocks 16
high_va_offset 0xffff800000000000
high_va_max 0xffffffffffe00000
vram_size 205822885888
visible_vram_size 205822885888
gtt_size 412316860416
product_name "AMD Instinct MI300X"
product_number "102-G30211-00"
serial_number "692334000500"
vbios_version "113-M3000100-102"
vram_vendor "hynix"
pcie_gen 5
pcie_width 16
power_average 140
power_cap 750
power_cap_max 750
temp_edge 0
temp_junction 40
temp_mem 35
temp_edge_crit 0
temp_junction_crit 110
temp_mem_crit 95
fan_rpm 0
fan_max_rpm 0
vddgfx 0
ras_features 239
