/* SPDX-License-Identifier: MIT */
/*
 * hsakmttypes_perf.h - performance counter blocks and traces, the tile configuration.
 *
 * One part of hsakmttypes.h, which includes it between its 4-byte
 * packing pragmas (the ROCm 5.2.3 layouts depend on them): include
 * <hsakmt/hsakmttypes.h>, never this file alone.
 */
#ifndef HSAKMT_HSAKMTTYPES_PERF_H
#define HSAKMT_HSAKMTTYPES_PERF_H

#ifndef HSAKMT_HSAKMTTYPES_H
#error "include <hsakmt/hsakmttypes.h>: it packs these types to 4 bytes"
#endif

#ifndef DEFINE_GUID
typedef struct _HSA_UUID {
	HSAuint32	Data1;
	HSAuint16	Data2;
	HSAuint16	Data3;
	HSAuint8	Data4[8];
} HSA_UUID;

#define HSA_DEFINE_UUID(name, dw, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
	static const HSA_UUID name = {dw, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}}
#else
#define HSA_UUID GUID
#define HSA_DEFINE_UUID DEFINE_GUID
#endif

/* Identifiers of the profilable hardware blocks. */
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_CB, 0x9ba429c6, 0xaf2d, 0x4b38,
		0xb3, 0x49, 0x15, 0x72, 0x71, 0xbe, 0xac, 0x6a);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_CPF, 0x2b0ad2b5, 0x1c43, 0x4f46,
		0xa7, 0xbc, 0xe1, 0x19, 0x41, 0x1e, 0xa6, 0xc9);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_CPG, 0x590ec94d, 0x20f0, 0x448f,
		0x8d, 0xff, 0x31, 0x6c, 0x67, 0x9d, 0xe7, 0xff);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_DB, 0x3d1a47fc, 0x0013, 0x4ed4,
		0x83, 0x06, 0x82, 0x2c, 0xa0, 0xb7, 0xa6, 0xc2);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_GDS, 0xf59276ec, 0x2526, 0x4bf8,
		0x8e, 0xc0, 0x11, 0x8f, 0x77, 0x70, 0x0d, 0xc9);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_GRBM, 0x8f00933c, 0xc33d, 0x4801,
		0x97, 0xb7, 0x70, 0x07, 0xf7, 0x85, 0x73, 0xad);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_GRBMSE, 0x34ebd8d7, 0x7c8b, 0x4d15,
		0x88, 0xfa, 0x0e, 0x4e, 0x4a, 0xf5, 0x9a, 0xc1);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_IA, 0x34276944, 0x4264, 0x4fcd,
		0x9d, 0x6e, 0xae, 0x26, 0x45, 0x82, 0xec, 0x51);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_MC, 0x13900b57, 0x4956, 0x4d98,
		0x81, 0xd0, 0x68, 0x52, 0x19, 0x37, 0xf5, 0x9c);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_PASC, 0xb0e7fb5d, 0x0efc, 0x4744,
		0xb5, 0x16, 0x5d, 0x23, 0xdc, 0x1f, 0xd5, 0x6c);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_PASU, 0x9a152b6a, 0x1fad, 0x45f2,
		0xa5, 0xbf, 0xf1, 0x63, 0x82, 0x6b, 0xd0, 0xcd);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_SPI, 0xeda81044, 0xd62c, 0x47eb,
		0xaf, 0x89, 0x4f, 0x6f, 0xbf, 0x3b, 0x38, 0xe0);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_SRBM, 0x9f8040e0, 0x6830, 0x4019,
		0xac, 0xc8, 0x46, 0x3c, 0x9e, 0x44, 0x5b, 0x89);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_SQ, 0xb5c396b6, 0xd310, 0x47e4,
		0x86, 0xfc, 0x5c, 0xc3, 0x04, 0x3a, 0xf5, 0x08);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_SX, 0xbdb8d737, 0x43cc, 0x4162,
		0xbe, 0x52, 0x51, 0xcf, 0xb8, 0x47, 0xbe, 0xaf);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TA, 0xc01ee43d, 0xad92, 0x44b1,
		0x8a, 0xb9, 0xbe, 0x5e, 0x69, 0x6c, 0xee, 0xa7);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TCA, 0x333e393f, 0xe147, 0x4f49,
		0xa6, 0xd1, 0x60, 0x91, 0x4c, 0x70, 0x86, 0xb0);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TCC, 0x848ce855, 0xd805, 0x4566,
		0xa8, 0xab, 0x73, 0xe8, 0x84, 0xcc, 0x6b, 0xff);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TCP, 0xe10a013b, 0x17d4, 0x4bf5,
		0xb0, 0x89, 0x42, 0x95, 0x91, 0x05, 0x9b, 0x60);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TCS, 0x4126245c, 0x4d96, 0x4d1a,
		0x8a, 0xed, 0xa9, 0x39, 0xd4, 0xcc, 0x8e, 0xc9);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_TD, 0x7d7c0fe4, 0xfe41, 0x4fea,
		0x92, 0xc9, 0x45, 0x44, 0xd7, 0x70, 0x6d, 0xc6);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_VGT, 0x0b6a8cb7, 0x7a01, 0x409f,
		0xa2, 0x2c, 0x30, 0x14, 0x85, 0x4f, 0x13, 0x59);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_WD, 0x0e176789, 0x46ed, 0x4b02,
		0x97, 0x2a, 0x91, 0x6d, 0x2f, 0xac, 0x24, 0x4a);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_IOMMUV2, 0x80969879, 0xb0f6, 0x4be6,
		0x97, 0xf6, 0x6a, 0x63, 0x00, 0xf5, 0x10, 0x1d);
HSA_DEFINE_UUID(HSA_PROFILEBLOCK_AMD_KERNEL_DRIVER, 0xea9b5ae1, 0x6c3f, 0x44b3,
		0x89, 0x54, 0xda, 0xf0, 0x75, 0x65, 0xa9, 0x0a);

typedef enum _HSA_PROFILE_TYPE {
	HSA_PROFILE_TYPE_PRIVILEGED_IMMEDIATE	= 0,
	HSA_PROFILE_TYPE_PRIVILEGED_STREAMING	= 1,
	HSA_PROFILE_TYPE_NONPRIV_IMMEDIATE	= 2,
	HSA_PROFILE_TYPE_NONPRIV_STREAMING	= 3,
	HSA_PROFILE_TYPE_NUM,
	HSA_PROFILE_TYPE_SIZE			= 0xFFFFFFFF
} HSA_PROFILE_TYPE;

typedef struct _HsaCounterFlags {
	union {
		struct {
			unsigned int Global	: 1;
			unsigned int Resettable	: 1;
			unsigned int ReadOnly	: 1;
			unsigned int Stream	: 1;
			unsigned int Reserved	: 28;
		} ui32;
		HSAuint32 Value;
	};
} HsaCounterFlags;

typedef struct _HsaCounter {
	HSA_PROFILE_TYPE Type;
	HSAuint64	CounterId;		/* register offset / event id */
	HSAuint32	CounterSizeInBits;
	HSAuint64	CounterMask;
	HsaCounterFlags	Flags;
	HSAuint32	BlockIndex;
} HsaCounter;

/* A block with NumCounters counters (Counters[] runs past its end). */
typedef struct _HsaCounterBlockProperties {
	HSA_UUID	BlockId;
	HSAuint32	NumCounters;
	HSAuint32	NumConcurrent;
	HsaCounter	Counters[1];
} HsaCounterBlockProperties;

/* NumBlocks variable-size blocks follow one another from Blocks[0]. */
typedef struct _HsaCounterProperties {
	HSAuint32			NumBlocks;
	HSAuint32			NumConcurrent;
	HsaCounterBlockProperties	Blocks[1];
} HsaCounterProperties;

typedef HSAuint64 HSATraceId;

typedef struct _HsaPmcTraceRoot {
	HSAuint64	TraceBufferMinSizeBytes;
	HSAuint32	NumberOfPasses;
	HSATraceId	TraceId;
} HsaPmcTraceRoot;

/* In/out of hsaKmtGetTileConfig(): the caller provides the arrays. */
typedef struct _HsaGpuTileConfig {
	HSAuint32 *TileConfig;
	HSAuint32 *MacroTileConfig;
	HSAuint32 NumTileConfigs;	/* capacity in, count out */
	HSAuint32 NumMacroTileConfigs;	/* capacity in, count out */
	HSAuint32 GbAddrConfig;
	HSAuint32 NumBanks;
	HSAuint32 NumRanks;
	HSAuint32 Reserved[7];
} HsaGpuTileConfig;

#endif /* HSAKMT_HSAKMTTYPES_PERF_H */
