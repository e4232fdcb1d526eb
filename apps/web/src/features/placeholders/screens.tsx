import { BarChart3, History } from 'lucide-react';
import { ComingSoon } from './coming-soon';

export const HistoryScreen = () => <ComingSoon screen="Test History" icon={History} />;
export const AnalyticsScreen = () => <ComingSoon screen="Analytics" icon={BarChart3} />;
