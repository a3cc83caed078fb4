import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  cameraOffsetSchema,
  framegrabJobSchema,
  framegrabResultSchema,
  recordingSchema,
  type CameraOffset,
  type FramegrabJob,
  type FramegrabResult,
  type Recording,
} from '@bathylog/shared';
import { z } from 'zod/mini';
import { api } from '../../api/client';

/** Recordings of a lowering and their frame jobs (docs/video.md#api). */
export const videoKeys = {
  recordings: (loweringId: string) => ['recordings', loweringId] as const,
  offsets: (loweringId: string) => ['camera-offsets', loweringId] as const,
  job: (loweringId: string) => ['framegrab-job', loweringId] as const,
};

export async function getRecordings(loweringId: string): Promise<Recording[]> {
  return z.array(recordingSchema).parse(await api.get(`lowerings/${loweringId}/recordings`));
}

export async function getCameraOffsets(loweringId: string): Promise<CameraOffset[]> {
  return z.array(cameraOffsetSchema).parse(await api.get(`lowerings/${loweringId}/camera_offsets`));
}

export function useRecordings(loweringId: string) {
  return useQuery({ queryKey: videoKeys.recordings(loweringId), queryFn: () => getRecordings(loweringId) });
}

export function useCameraOffsets(loweringId: string) {
  return useQuery({ queryKey: videoKeys.offsets(loweringId), queryFn: () => getCameraOffsets(loweringId) });
}

export async function grabFrame(eventId: string): Promise<FramegrabResult> {
  return framegrabResultSchema.parse(await api.post(`events/${eventId}/framegrab`));
}

export async function getFramegrabJob(loweringId: string): Promise<FramegrabJob | null> {
  return z.nullable(framegrabJobSchema).parse(await api.get(`lowerings/${loweringId}/framegrabs`));
}

/** The lowering's latest frame job, polled every second while it runs. */
export function useFramegrabJob(loweringId: string, enabled = true) {
  return useQuery({
    queryKey: videoKeys.job(loweringId),
    queryFn: () => getFramegrabJob(loweringId),
    enabled,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 1000 : false),
  });
}

export function useStartFramegrabJob(loweringId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => framegrabJobSchema.parse(await api.post(`lowerings/${loweringId}/framegrabs`)),
    onSuccess: (job) => client.setQueryData(videoKeys.job(loweringId), job),
  });
}
