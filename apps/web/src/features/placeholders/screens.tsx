import { BarChart3, CirclePlus, Globe, History, Server, Smartphone } from 'lucide-react';
import { ComingSoon } from './coming-soon';

export const HistoryScreen = () => <ComingSoon screen="Test History" icon={History} />;
export const AnalyticsScreen = () => <ComingSoon screen="Analytics" icon={BarChart3} />;

export const WebProjectScreen = () => <ComingSoon screen="Web Application" icon={Globe} />;
export const MobileProjectScreen = () => <ComingSoon screen="Mobile App" icon={Smartphone} />;
export const ApiProjectScreen = () => <ComingSoon screen="API Service" icon={Server} />;
export const NewProjectScreen = () => <ComingSoon screen="Add New Project" icon={CirclePlus} />;
