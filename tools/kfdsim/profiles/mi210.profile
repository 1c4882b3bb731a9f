# kfdsim builtin profile 'mi210': one AMD Instinct MI210 (gfx90a, aldebaran, 104 CUs, 64 GiB HBM2e) on a 16-core EPYC 7313P host (32 threads)
# Illustrative values: gpu_id, PCI location, firmware versions and unique_id are
# board specific; sizes, counts and derived CWSR values follow the kernel's formulas.
[machine]
name "mi210"
description "one AMD Instinct MI210 (gfx90a, aldebaran, 104 CUs, 64 GiB HBM2e) on a 16-core EPYC 7313P host (32 threads)"
platform_oem 2314885706915061825
platform_id 71791775140929
platform_rev 2
generation_id 2
system_mem_limit 0

# The host: one EPYC 7313P (Zen 3 "Milan", 16 cores x 2 threads = the KFD
# CPU node's 32 cpu_cores_count; four 4-core CCDs with 32 MiB of L3 each).
[cpu]
vendor_id AuthenticAMD
family 25
model 1
stepping 1
model_name "AMD EPYC 7313P 16-Core Processor"
mhz 3000
microcode 0xa0011d1
cpuid_level 16
sockets 1
cores_per_socket 16
threads_per_core 2
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
size 512
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
cores 4

[node 0]
gpu_id 0
name ""
cpu_cores_count 32
simd_count 0
mem_banks_count 1
caches_count 0
io_links_count 1
p2p_links_count 0
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
max_engine_clk_ccompute 3000

[node 0 mem_bank 0]
heap_type 0
size_in_bytes 270088859648
flags 0
width 64
mem_clk_max 3200

[node 0 io_link 0]
type 2
version_major 0
version_minor 0
node_from 0
node_to 1
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 32000
recommended_transfer_size 0
flags 3

[node 1]
gpu_id 43794
name "aldebaran"
cpu_cores_count 0
simd_count 416
mem_banks_count 1
caches_count 217
io_links_count 1
p2p_links_count 0
cpu_core_id_base 0
simd_id_base 2147487744
max_waves_per_simd 8
lds_size_in_kb 64
gds_size_in_kb 0
num_gws 64
wave_front_size 64
array_count 8
simd_arrays_per_engine 1
cu_per_simd_array 16
simd_per_cu 4
max_slots_scratch_cu 32
gfx_target_version 90010
vendor_id 4098
device_id 29711
location_id 768
domain 0
drm_render_minor 128
hive_id 0
num_sdma_engines 2
num_sdma_xgmi_engines 3
num_sdma_queues_per_engine 8
num_cp_queues 24
cwsr_size 63508480
ctl_stack_size 36864
max_engine_clk_fcompute 1700
local_mem_size 0
fw_version 78
capability 750232192
capability2 0
debug_prop 1494
sdma_fw_version 8
unique_id 7325621451234567890
num_xcc 1
max_engine_clk_ccompute 3000

[node 1 mem_bank 0]
heap_type 1
size_in_bytes 68702699520
flags 0
width 4096
mem_clk_max 1600

[node 1 cache 0]
repeat 104
processor_id_step 1
processor_id_low 2147487744
level 1
size 16
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 1 cache 104]
repeat 56
processor_id_step 2
processor_id_low 2147487744
level 1
size 64
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 10
sibling_map 1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 1 cache 160]
repeat 56
processor_id_step 2
processor_id_low 2147487744
level 1
size 16
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 1 cache 216]
processor_id_low 2147487744
level 2
size 8192
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 1 io_link 0]
type 2
version_major 0
version_minor 0
node_from 1
node_to 0
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 32000
recommended_transfer_size 0
flags 1
recommended_sdma_engine_id_mask 3

[node 1 gpu]
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
ctl_stack_size 36864
cwsr_size 63508480
debug_memory_size 131072
large_bar 1
is_apu 0
xnack_capable 1
xnack_default 0
sched_policy 0
max_queues 127
num_gws 64
gpu_clock_hz 100000000
vram_size 68702699520
vram_reserved 16777216
gb_addr_config 0x2a114042
num_banks 0
num_ranks 0
num_tile_configs 32
num_macro_tile_configs 16

[node 1 drm]
render_minor 128
card_minor 0
version_major 3
version_minor 57
version_patch 0
pci_domain 0
pci_bus 3
pci_dev 0
pci_func 0
subsystem_vendor 0x1002
subsystem_device 0xc34
device_id 0x740f
chip_rev 1
external_rev 0x3d
pci_rev 0x2
family 141
num_shader_engines 8
num_shader_arrays_per_engine 1
gpu_counter_freq 100000
max_engine_clock 1700000
max_memory_clock 1600000
min_engine_clock 500000
min_memory_clock 100000
cu_active_number 104
cu_ao_mask 0
cu_bitmap 0x1fff,0x1fff,0x0,0x0,0x1fff,0x1fff,0x0,0x0,0x1fff,0x1fff,0x0,0x0,0x1fff,0x1fff,0x0,0x0
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
vram_bit_width 4096
wave_front_size 64
num_shader_visible_vgprs 256
num_cu_per_sh 16
num_tcc_blocks 16
high_va_offset 0xffff800000000000
high_va_max 0xffffffffffe00000
vram_size 68702699520
visible_vram_size 68702699520
gtt_size 135044429824
product_name "AMD Instinct MI210"
product_number "102-D67302-00"
serial_number "692231000111"
vbios_version "113-D67301-063"
vram_vendor "samsung"
pcie_gen 4
pcie_width 16
power_average 42
power_cap 300
power_cap_max 300
temp_edge 35
temp_junction 38
temp_mem 40
temp_edge_crit 100
temp_junction_crit 105
temp_mem_crit 95
fan_rpm 0
fan_max_rpm 0
vddgfx 775
ras_features 239
